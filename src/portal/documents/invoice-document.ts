import Decimal from 'decimal.js';
import { formatAmount } from 'src/core/money/money-format';
import { decimalOf, text } from './wire-values';

type Wire = Record<string, unknown>;

export interface DocumentLine {
  description: string;
  quantity: string;
  rate: string;
  total: string;
}

export interface DocumentPayment {
  date: string;
  description: string;
  amount: string;
}

/** An invoice as printed: every figure already formatted, the same for the HTML page and the PDF. */
export interface InvoiceDocument {
  businessName: string;
  number: string;
  date: string;
  dueDate: string;
  status: string;
  isPaid: boolean;
  isVoid: boolean;
  customerName: string;
  billTo: string;
  lines: DocumentLine[];
  subtotal: string;
  taxes: { name: string; amount: string }[];
  total: string;
  payments: DocumentPayment[];
  paid: string;
  balance: string;
  hasBalance: boolean;
}

function quantity(value: unknown): string {
  return decimalOf(value).toString();
}

/** Taxes summed per tax name over the lines (taxes are rounded per line, DESIGN §5). */
function taxesOf(lines: Wire[], symbol: string): { name: string; amount: string }[] {
  const sums = new Map<string, Decimal>();
  for (const line of lines) {
    const amount = decimalOf(line.tax_total);
    if (amount.isZero()) continue;
    const name = text(line.tax_name) || 'Tax';
    sums.set(name, (sums.get(name) ?? new Decimal(0)).plus(amount));
  }
  return [...sums].map(([name, amount]) => ({ name, amount: formatAmount(symbol, amount) }));
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
  const lines = (invoice.line_items as Wire[] | undefined) ?? [];
  const balance = decimalOf(invoice.balance);
  const paid = decimalOf(invoice.total).minus(balance);
  return {
    businessName,
    number: text(invoice.refnumber) || text(invoice.invoice_id),
    date: text(invoice.date),
    dueDate: text(invoice.due_date),
    status: text(invoice.invoice_status_name),
    isPaid: invoice.is_paid === true,
    isVoid: invoice.is_void === true,
    customerName: text(customer.display_as),
    billTo: text(invoice.bill_block),
    lines: lines.map((line) => ({
      description: text(line.descrip) || text(line.item_name),
      quantity: quantity(line.line_quantity),
      rate: formatAmount(symbol, decimalOf(line.line_rate)),
      // Before tax: taxes are listed under the subtotal.
      total: formatAmount(symbol, decimalOf(line.line_subtotal)),
    })),
    subtotal: formatAmount(symbol, decimalOf(invoice.subtotal)),
    taxes: taxesOf(lines, symbol),
    total: formatAmount(symbol, decimalOf(invoice.total)),
    payments: payments.map(({ transaction, applied }) => ({
      date: text(transaction.transaction_date),
      description: `${text(transaction.transaction_type_name)} #${text(transaction.transaction_id)}`,
      amount: formatAmount(symbol, applied),
    })),
    paid: formatAmount(symbol, paid),
    balance: formatAmount(symbol, balance),
    hasBalance: balance.gt(0) && invoice.is_void !== true,
  };
}
