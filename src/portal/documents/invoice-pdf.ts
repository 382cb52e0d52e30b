import { InvoiceDocument } from './invoice-document';
import { PdfSheet } from './pdf-sheet';

/** `url_pdflink`: the invoice as a PDF a business would send. */
export function invoicePdf(d: InvoiceDocument): Promise<Buffer> {
  const sheet = new PdfSheet(`Invoice ${d.number}`, d.businessName)
    .heading(d.businessName, 'INVOICE', [
      ['Invoice', `#${d.number}`],
      ['Date', d.date],
      ['Due', d.dueDate],
      ['Status', d.status],
    ])
    .block('Bill to', [d.customerName, d.billTo].filter(Boolean).join('\n'))
    .table(
      [
        { header: 'Description', width: 50 },
        { header: 'Qty', width: 10, align: 'right' },
        { header: 'Rate', width: 20, align: 'right' },
        { header: 'Amount', width: 20, align: 'right' },
      ],
      d.lines.map((l) => [l.description, l.quantity, l.rate, l.total]),
    )
    .totals([
      { label: 'Subtotal', amount: d.subtotal },
      ...d.taxes.map((t) => ({ label: t.name, amount: t.amount })),
      { label: 'Total', amount: d.total, strong: true },
      { label: 'Paid', amount: d.paid },
      { label: 'Balance due', amount: d.balance, strong: true },
    ]);
  if (d.payments.length > 0) {
    sheet.subheading('Payments').table(
      [
        { header: 'Date', width: 25 },
        { header: 'Payment', width: 50 },
        { header: 'Applied', width: 25, align: 'right' },
      ],
      d.payments.map((p) => [p.date, p.description, p.amount]),
    );
  }
  return sheet.note(`Thank you for your business. ${d.businessName}`).finish();
}
