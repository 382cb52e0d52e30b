import type { Response } from 'express';

/** A document's PDF, shown in the browser, never cached (it carries a customer's figures). */
export function sendPdf(res: Response, filename: string, pdf: Buffer): void {
  res.set({
    'Cache-Control': 'no-store',
    'Content-Disposition': `inline; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
  });
  res.status(200).type('application/pdf').send(pdf);
}
