import { Seller } from 'src/config/business-name';
import { formatAmount } from 'src/core/money/money-format';
import { decimalOf, text } from './wire-values';

type Wire = Record<string, unknown>;

/** A customer statement as printed: its invoices, its payments and what is due. */
export interface StatementDocument {
  businessName: string;
  /** Who sells: name, address, tax id and logo (set by DocumentsService from the configuration). */
  seller?: Seller;
  date: string;
  customerName: string;
  billTo: string;
  invoices: { number: string; date: string; dueDate: string; status: string; total: string; balance: string }[];
  payments: { date: string; description: string; status: string; amount: string }[];
  balance: string;
}

export function statementDocument(
  businessName: string,
  date: string,
  customer: Wire,
  invoices: Wire[],
  payments: Wire[],
): StatementDocument {
  const symbol = text(customer.currency_symbol);
  return {
    businessName,
    date,
    customerName: text(customer.display_as),
    billTo: text(customer.bill_block),
    invoices: invoices.map((i) => ({
      number: text(i.refnumber) || text(i.invoice_id),
      date: text(i.date),
      dueDate: text(i.due_date),
      status: text(i.invoice_status_name),
      total: formatAmount(symbol, decimalOf(i.total)),
      balance: formatAmount(symbol, decimalOf(i.balance)),
    })),
    payments: payments.map((t) => ({
      date: text(t.transaction_date),
      description: `${text(t.transaction_type_name)} #${text(t.transaction_id)}`,
      status: text(t.transaction_status_name),
      amount: formatAmount(symbol, decimalOf(t.amount)),
    })),
    balance: formatAmount(symbol, decimalOf(customer.balance)),
  };
}
