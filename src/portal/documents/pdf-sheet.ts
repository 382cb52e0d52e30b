import type PDFKit from 'pdfkit';
import { Seller } from 'src/config/business-name';
import { lazyRequire } from 'src/core/lazy/lazy-require';

export interface PdfColumn {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/**
 * pdfkit with its fonts and codecs adds about 25 MB to a process's memory; only a PDF
 * needs it, so it is loaded by the first one, not by every server and billing run.
 */
const loadPdfKit = lazyRequire<typeof PDFKit>('pdfkit');

const MARGIN = 50;
const INK = '#1d2330';
const MUTED = '#5b6573';

/**
 * A business document on A4/Letter-neutral pages (pdfkit, its built-in Helvetica): a
 * heading, address blocks, tables that continue on new pages, and right-aligned totals.
 */
export class PdfSheet {
  private readonly doc = new (loadPdfKit())({ size: 'LETTER', margin: MARGIN, info: {} });
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(title: string, author: string) {
    this.doc.info.Title = title;
    this.doc.info.Author = author;
    this.done = new Promise((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
  }

  private get width(): number {
    return this.doc.page.width - 2 * MARGIN;
  }

  /**
   * Business name on the left (under its logo, above its address and tax id when the seller
   * has them), document title and its facts on the right.
   */
  heading(business: string, title: string, facts: [string, string][], seller?: Seller): this {
    const top = this.doc.y;
    let left = top;
    if (seller?.logo) {
      this.doc.image(seller.logo, MARGIN, top, { fit: [160, 48] });
      left = top + 54;
    }
    this.doc
      .font('Helvetica-Bold')
      .fontSize(18)
      .fillColor(INK)
      .text(business, MARGIN, left, { width: this.width / 2 });
    const details = [...(seller?.addressLines ?? []), ...(seller?.taxId ? [`Tax ID: ${seller.taxId}`] : [])];
    if (details.length > 0) {
      this.doc
        .font('Helvetica')
        .fontSize(9)
        .fillColor(MUTED)
        .text(details.join('\n'), MARGIN, this.doc.y, { width: this.width / 2 });
    }
    const leftBottom = this.doc.y;
    this.doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(20)
      .text(title, MARGIN, top, { width: this.width, align: 'right' });
    this.doc.font('Helvetica').fontSize(10);
    for (const [label, value] of facts) this.doc.text(`${label}: ${value}`, { width: this.width, align: 'right' });
    this.doc.x = MARGIN;
    this.doc.y = Math.max(this.doc.y, leftBottom);
    this.doc.moveDown(2);
    return this;
  }

  block(label: string, lines: string): this {
    this.doc.font('Helvetica-Bold').fontSize(10).fillColor(MUTED).text(label.toUpperCase(), MARGIN);
    this.doc
      .font('Helvetica')
      .fontSize(11)
      .fillColor(INK)
      .text(lines || ' ', MARGIN);
    this.doc.moveDown(1.2);
    return this;
  }

  subheading(title: string): this {
    this.doc.moveDown(0.5).font('Helvetica-Bold').fontSize(12).fillColor(INK).text(title, MARGIN);
    this.doc.moveDown(0.3);
    return this;
  }

  table(columns: PdfColumn[], rows: string[][]): this {
    const scale = this.width / columns.reduce((sum, c) => sum + c.width, 0);
    const row = (cells: string[], bold: boolean): void => {
      const y = this.doc.y;
      let x = MARGIN;
      let bottom = y;
      this.doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(10)
        .fillColor(bold ? MUTED : INK);
      cells.forEach((cell, i) => {
        const width = columns[i].width * scale;
        this.doc.text(cell, x + 2, y, { width: width - 4, align: columns[i].align ?? 'left' });
        bottom = Math.max(bottom, this.doc.y);
        x += width;
      });
      this.doc
        .moveTo(MARGIN, bottom + 3)
        .lineTo(MARGIN + this.width, bottom + 3)
        .strokeColor('#dde1e7')
        .stroke();
      this.doc.x = MARGIN;
      this.doc.y = bottom + 7;
    };
    row(
      columns.map((c) => c.header),
      true,
    );
    for (const cells of rows) {
      if (this.doc.y > this.doc.page.height - MARGIN - 40) this.doc.addPage();
      row(cells, false);
    }
    return this;
  }

  /** Label/amount pairs aligned to the right edge; `strong` rows in bold and larger. */
  totals(rows: { label: string; amount: string; strong?: boolean }[]): this {
    this.doc.moveDown(0.5);
    for (const { label, amount, strong } of rows) {
      const y = this.doc.y;
      this.doc
        .font(strong ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(strong ? 13 : 11)
        .fillColor(INK);
      this.doc.text(label, MARGIN + this.width * 0.45, y, { width: this.width * 0.3, align: 'right' });
      this.doc.text(amount, MARGIN + this.width * 0.75, y, { width: this.width * 0.25, align: 'right' });
      this.doc.moveDown(0.3);
    }
    this.doc.x = MARGIN;
    return this;
  }

  note(line: string): this {
    this.doc
      .moveDown(1)
      .font('Helvetica')
      .fontSize(9)
      .fillColor(MUTED)
      .text(line, MARGIN, this.doc.y, { width: this.width });
    return this;
  }

  finish(): Promise<Buffer> {
    this.doc.end();
    return this.done;
  }
}
