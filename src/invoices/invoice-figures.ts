import Decimal from 'decimal.js';
import { ZERO } from 'src/core/money/decimal';
import { daysBetween } from 'src/core/time/account-date';
import { InvoiceApplied } from './invoice-extensions';
import { InvoiceStatusStr, isPastDue } from './invoice-status';

/** The stored facts the derived figures depend on. */
export interface InvoiceFacts {
  total: Decimal;
  due_date: string;
  void_datetime: Date | null;
  in_collections: boolean;
}

/** Everything derived from the stored total, the money applied and today (lists and single reads alike). */
export interface InvoiceFigures {
  applied: Decimal;
  balance: Decimal;
  overdue: Decimal;
  is_paid: boolean;
  is_void: boolean;
  is_overdue: boolean;
  days_overdue: number;
  status: InvoiceStatusStr;
}

/**
 * The invariant of DESIGN §6 "Invoices": `applied` = payments + credits − refunds, balance
 * = total − applied − writeoffs (0 once void), so a refund re-opens what it gives back. Status
 * (DESIGN §6): closed-void if void; closed-paid if the balance is 0; open-collections
 * if set; open-overdue if past due with a balance; else open-unpaid.
 */
export function invoiceFigures(facts: InvoiceFacts, applied: InvoiceApplied, today: string): InvoiceFigures {
  const isVoid = facts.void_datetime !== null;
  // Nothing applied (every amount the shared ZERO, as for each invoice a billing run issues
  // and reads back): the total is what is open, without seven Decimals made to say so. A
  // negative total (a -0 among them) takes the arithmetic, whose signed zeros it keeps.
  const nothing =
    applied.payments === ZERO &&
    applied.credits === ZERO &&
    applied.writeoffs === ZERO &&
    applied.refunds === ZERO &&
    !facts.total.isNegative();
  const net = nothing ? ZERO : applied.payments.plus(applied.credits).minus(applied.refunds);
  const open = nothing ? facts.total : facts.total.minus(net).minus(applied.writeoffs);
  const balance = isVoid ? ZERO : Decimal.max(open, ZERO);
  const late = daysBetween(facts.due_date, today);
  const isOverdue = !isVoid && balance.gt(ZERO) && isPastDue(facts.due_date, today);
  let status: InvoiceStatusStr;
  if (isVoid) status = 'closed-void';
  else if (balance.lte(ZERO)) status = 'closed-paid';
  else if (facts.in_collections) status = 'open-collections';
  else if (isOverdue) status = 'open-overdue';
  else status = 'open-unpaid';
  return {
    applied: net,
    balance,
    overdue: isOverdue ? balance : ZERO,
    is_paid: balance.lte(ZERO),
    is_void: isVoid,
    is_overdue: isOverdue,
    days_overdue: isOverdue ? late : 0,
    status,
  };
}
