import { PdfSheet } from './pdf-sheet';
import { PrintedDocument } from './printed-document';

/** The PDF of an invoice or a quote up to its totals; the caller adds what its kind adds, then finishes. */
export function documentSheet(d: PrintedDocument): PdfSheet {
  return new PdfSheet(`${d.kind} ${d.number}`, d.businessName)
    .heading(
      d.businessName,
      d.kind.toUpperCase(),
      [[d.kind, `#${d.number}`], ...d.facts.map((f): [string, string] => [f.label, f.value]), ['Status', d.status]],
      d.seller,
    )
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
    .totals(d.totals);
}
