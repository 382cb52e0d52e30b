import { PdfSheet } from './pdf-sheet';
import { StatementDocument } from './statement-document';

/** The PDF form of `url_statementlink`. */
export function statementPdf(d: StatementDocument): Promise<Buffer> {
  return new PdfSheet(`Statement ${d.customerName}`, d.businessName)
    .heading(
      d.businessName,
      'STATEMENT',
      [
        ['Date', d.date],
        ['Balance due', d.balance],
      ],
      d.seller,
    )
    .block('Customer', [d.customerName, d.billTo].filter(Boolean).join('\n'))
    .subheading('Invoices')
    .table(
      [
        { header: 'Invoice', width: 15 },
        { header: 'Date', width: 17 },
        { header: 'Due', width: 17 },
        { header: 'Status', width: 17 },
        { header: 'Total', width: 17, align: 'right' },
        { header: 'Balance', width: 17, align: 'right' },
      ],
      d.invoices.map((i) => [`#${i.number}`, i.date, i.dueDate, i.status, i.total, i.balance]),
    )
    .subheading('Payments')
    .table(
      [
        { header: 'Date', width: 20 },
        { header: 'Payment', width: 40 },
        { header: 'Status', width: 20 },
        { header: 'Amount', width: 20, align: 'right' },
      ],
      d.payments.map((p) => [p.date, p.description, p.status, p.amount]),
    )
    .totals([{ label: 'Balance due', amount: d.balance, strong: true }])
    .finish();
}
