import { pluginClass } from 'src/core/plugins/plugins';
import Decimal from 'decimal.js';
import { RequestContext } from 'src/core/context/request-context';
import { Tx } from 'src/database/unit-of-work';

/** A credit memo to record for a customer: what a server-issued invoice gave back beyond its charges. */
export interface CreditMemoToRecord {
  customerId: number;
  amount: Decimal;
  /** Names what the credit came from (e.g. the subscription), shown as the memo's `memo`. */
  memo: string;
}

/** An invoice the server has just issued, to receive the customer's open credit. */
export interface IssuedForCredit {
  invoiceId: number;
  customerId: number;
  balance: Decimal;
}

/**
 * The customer's credit balance (DESIGN §6 "Credits"), kept by the module that records
 * money (transactions) and plugged into InvoiceExtensions: InvoiceIssuer records the credit
 * memos of server-issued drafts and applies open credit to the invoices it issued, inside
 * the caller's unit.
 */
export interface InvoiceCreditHandler {
  recordMemos(tx: Tx, ctx: RequestContext, memos: readonly CreditMemoToRecord[]): Promise<void>;
  applyOpenCredit(tx: Tx, ctx: RequestContext, invoices: readonly IssuedForCredit[]): Promise<void>;
}

/** Marks the provider that keeps the credit balance (one in the app). */
export const InvoiceCreditHandler = pluginClass<InvoiceCreditHandler, void>();
