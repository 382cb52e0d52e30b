import Decimal from 'decimal.js';
import { formatAmount } from 'src/core/money/money-format';
import { documentLines, documentParty, PrintedDocument } from './printed-document';
import { decimalOf, text } from './wire-values';

type Wire = Record<string, unknown>;

export interface DocumentPayment {
  date: string;
  description: string;
  amount: string;
}

/** An invoice as printed: the shared document plus its payments and balance. */
export interface InvoiceDocument extends PrintedDocument {
  payments: DocumentPayment[];
  balance: string;
  hasBalance: boolean;
  /** The invoice's `url_paylink` while it has a balance to pay, else null. */
  payUrl: string | null;
}

/** Taxes summed per tax name over the lines (taxes are rounded per line, DESIGN §5). */
function taxesOf(lines: Wire[], symbol: string): { label: string; amount: string }[] {
  const sums = new Map<string, Decimal>();
  for (const line of lines) {
    const amount = decimalOf(line.tax_total);
    if (amount.isZero()) continue;
    const name = text(line.tax_name) || 'Tax';
    sums.set(name, (sums.get(name) ?? new Decimal(0)).plus(amount));
  }
  return [...sums].map(([label, amount]) => ({ label, amount: formatAmount(symbol, amount) }));
}

/**
 * Builds the printed invoice from the API's own reads: the invoice (with `line_items`),
 * its customer, and the payments applied to it (`applied` = the part on this invoice).
 */
export function invoiceDocument(
  businessName: string,
  invoice: Wire,
  customer: Wire,
  payments: { transaction: Wire; applied: Decimal }[],
): InvoiceDocument {
  const symbol = text(invoice.currency_symbol);
  const money = (value: Decimal.Value): string => formatAmount(symbol, new Decimal(value));
  const lines = (invoice.line_items as Wire[] | undefined) ?? [];
  const balance = decimalOf(invoice.balance);
  const paid = decimalOf(invoice.total).minus(balance);
  const hasBalance = balance.gt(0) && invoice.is_void !== true;
  return {
    businessName,
    kind: 'Invoice',
    number: text(invoice.refnumber) || text(invoice.invoice_id),
    facts: [
      { label: 'Date', value: text(invoice.date) },
      { label: 'Due', value: text(invoice.due_date) },
    ],
    status: text(invoice.invoice_status_name),
    isSettled: invoice.is_paid === true,
    ...documentParty(invoice, customer),
    lines: documentLines(lines, symbol, (line) => decimalOf(line.line_rate)),
    totals: [
      { label: 'Subtotal', amount: money(decimalOf(invoice.subtotal)) },
      ...taxesOf(lines, symbol),
      { label: 'Total', amount: money(decimalOf(invoice.total)), strong: true },
      { label: 'Paid', amount: money(paid) },
      { label: 'Balance due', amount: money(balance), strong: true, id: 'balance' },
    ],
    payments: payments.map(({ transaction, applied }) => ({
      date: text(transaction.transaction_date),
      description: `${text(transaction.transaction_type_name)} #${text(transaction.transaction_id)}`,
      amount: money(applied),
    })),
    balance: money(balance),
    hasBalance,
    payUrl: hasBalance ? text(invoice.url_paylink) || null : null,
  };
}
