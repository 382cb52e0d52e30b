import { documentSheet } from './document-pdf';
import { InvoiceDocument } from './invoice-document';

/** `url_pdflink`: the invoice as a PDF a business would send. */
export function invoicePdf(d: InvoiceDocument): Promise<Buffer> {
  const sheet = documentSheet(d);
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
  if (d.payUrl) sheet.note(`Pay ${d.balance} online: ${d.payUrl}`);
  return sheet.note(`Thank you for your business. ${d.businessName}`).finish();
}
