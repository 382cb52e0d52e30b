import Decimal from 'decimal.js';
import { EntityManager, In, IsNull, Not } from 'typeorm';
import { formatAmount } from 'src/core/money/money-format';
import { Contact } from 'src/customers/entities/contact.entity';
import { WireInvoice } from './wire-invoice';

/**
 * The addresses an invoice is mailed to, per customer: every contact of the customer with an
 * e-mail address (its billing contacts), in contact order, each once. One statement for all.
 */
export async function billingEmailsOf(
  m: EntityManager,
  customerIds: readonly number[],
): Promise<Map<number, string[]>> {
  const byCustomer = new Map<number, string[]>(customerIds.map((id) => [id, []]));
  if (customerIds.length === 0) return byCustomer;
  const contacts = await m.find(Contact, {
    select: { user_id: true, customer_id: true, email: true },
    where: { customer_id: In([...new Set(customerIds)]), email: Not(IsNull()) },
    order: { user_id: 'ASC' },
  });
  for (const contact of contacts) {
    const email = (contact.email as string).trim();
    const list = byCustomer.get(contact.customer_id)!;
    if (email !== '' && !list.includes(email)) list.push(email);
  }
  return byCustomer;
}

type MailedInvoice = Pick<
  WireInvoice,
  | 'invoice_id'
  | 'refnumber'
  | 'currency_symbol'
  | 'date'
  | 'due_date'
  | 'total'
  | 'balance'
  | 'is_paid'
  | 'is_void'
  | 'url_permalink'
  | 'url_pdflink'
  | 'url_paylink'
>;

/** What the `invoice` mail template shows of an invoice as presented on the wire. */
export function invoiceMailData(invoice: MailedInvoice, customerName: string | null): Record<string, unknown> {
  const symbol = String(invoice.currency_symbol);
  return {
    number: invoice.refnumber ?? String(invoice.invoice_id),
    customerName,
    date: invoice.date,
    dueDate: invoice.due_date,
    total: formatAmount(symbol, new Decimal(String(invoice.total))),
    balance: formatAmount(symbol, new Decimal(String(invoice.balance))),
    viewUrl: invoice.url_permalink,
    pdfUrl: invoice.url_pdflink,
    payUrl: invoice.is_paid === true || invoice.is_void === true ? null : invoice.url_paylink,
  };
}
