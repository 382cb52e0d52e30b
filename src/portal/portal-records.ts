import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Customer } from 'src/customers/entities/customer.entity';
import { ApiError } from 'src/core/envelope/api-error';
import { CustomersService } from 'src/customers/customers.service';
import { InvoicesService } from 'src/invoices/invoices.service';
import { BankAccountsService } from 'src/paymethods/bank-accounts.service';
import { CreditCardsService } from 'src/paymethods/credit-cards.service';
import { TokenizedService } from 'src/paymethods/tokenized.service';
import { QuotesService } from 'src/quotes/quotes.service';
import { SubscriptionsService } from 'src/subscriptions/subscriptions.service';
import { TransactionsService } from 'src/transactions/transactions.service';
import { text } from './documents/wire-values';
import { fieldsOf } from 'src/core/wire/fields-of';

export type Wire = Record<string, unknown>;

/** Object tokens are 12 lowercase alphanumerics (DESIGN §4); anything else is no link of ours. */
const TOKEN = /^[a-z0-9]{12}$/;
const MAX_ROWS = '500';

/**
 * What the hosted pages show, read through the API's own services so a page and the API
 * never disagree on a figure. Missing objects are null (the pages answer 404).
 */
@Injectable()
export class PortalRecords {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly customers: CustomersService,
    private readonly transactions: TransactionsService,
    private readonly cards: CreditCardsService,
    private readonly bankAccounts: BankAccountsService,
    private readonly subscriptions: SubscriptionsService,
    private readonly quotes: QuotesService,
    private readonly tokenized: TokenizedService,
    private readonly dataSource: DataSource,
  ) {}

  invoiceByToken(token: string): Promise<Wire | null> {
    return TOKEN.test(token) ? orNull(this.invoices.findOne(`token:${token}`)) : Promise.resolve(null);
  }

  customerByToken(token: string): Promise<Wire | null> {
    return TOKEN.test(token) ? orNull(this.customers.findOne(`token:${token}`)) : Promise.resolve(null);
  }

  quoteByToken(token: string): Promise<Wire | null> {
    return TOKEN.test(token) ? orNull(this.quotes.findOne(`token:${token}`)) : Promise.resolve(null);
  }

  quote(id: number): Promise<Wire | null> {
    return orNull(this.quotes.findOne(String(id)));
  }

  invoice(id: number): Promise<Wire | null> {
    return orNull(this.invoices.findOne(String(id)));
  }

  async customer(id: number): Promise<Wire> {
    return fieldsOf(await this.customers.findOne(String(id)));
  }

  /** The masked number of the customer's default card or bank account, if any. */
  async paymethodOnFile(customer: Wire): Promise<string | null> {
    if (customer.default_paymethod === 'crd' && customer.default_creditcard_id) {
      return String((await this.cards.findOne(text(customer.default_creditcard_id))).mask_number);
    }
    if (customer.default_paymethod === 'ach' && customer.default_ach_id) {
      return String((await this.bankAccounts.findOne(text(customer.default_ach_id))).mask_number);
    }
    if (customer.default_paymethod === 'tok') {
      // The wire shows no default_tokenized_id (as recorded): read it from the row.
      const row = await this.dataSource.manager.findOne(Customer, {
        select: { customer_id: true, default_tokenized_id: true },
        where: { customer_id: Number(customer.customer_id) },
      });
      if (!row?.default_tokenized_id) return null;
      const { mask_number: mask } = await this.tokenized.findOne(String(row.default_tokenized_id));
      return typeof mask === 'string' ? mask : 'a card kept by our payment processor';
    }
    return null;
  }

  async transaction(id: number): Promise<Wire> {
    return fieldsOf(await this.transactions.findOne(String(id)));
  }

  /** Newest first, over the given customers. */
  async invoicesOf(customerIds: number[]): Promise<Wire[]> {
    const lists = await Promise.all(
      customerIds.map((id) =>
        this.invoices.list({ where: `customer_id:EQUALS:${id}`, order: 'invoice_id:DESC', limit: MAX_ROWS }),
      ),
    );
    return lists
      .flat()
      .sort((a, b) => b.invoice_id - a.invoice_id)
      .map(fieldsOf);
  }

  async subscriptionsOf(customerIds: number[]): Promise<Wire[]> {
    const lists = await Promise.all(
      customerIds.map((id) =>
        this.subscriptions.list({ where: `customer_id:EQUALS:${id}`, order: 'package_id:DESC', limit: MAX_ROWS }),
      ),
    );
    return lists
      .flat()
      .sort((a, b) => b.package_id - a.package_id)
      .map(fieldsOf);
  }

  async quotesOf(customerIds: number[]): Promise<Wire[]> {
    const lists = await Promise.all(
      customerIds.map((id) =>
        this.quotes.list({ where: `customer_id:EQUALS:${id}`, order: 'quote_id:DESC', limit: MAX_ROWS }),
      ),
    );
    return lists
      .flat()
      .sort((a, b) => b.quote_id - a.quote_id)
      .map(fieldsOf);
  }

  async paymentsOf(customerIds: number[]): Promise<Wire[]> {
    const lists = await Promise.all(
      customerIds.map((id) =>
        this.transactions.list({ where: `customer_id:EQUALS:${id}`, order: 'transaction_id:DESC', limit: MAX_ROWS }),
      ),
    );
    return lists
      .flat()
      .sort((a, b) => b.transaction_id - a.transaction_id)
      .map(fieldsOf);
  }

  async paymentsOn(invoiceId: number): Promise<Wire[]> {
    const payments = await this.transactions.list({
      where: `applied_to.invoice_id:EQUALS:${invoiceId}`,
      order: 'transaction_id:ASC',
      limit: MAX_ROWS,
    });
    return payments.map(fieldsOf);
  }
}

async function orNull(read: Promise<object>): Promise<Wire | null> {
  try {
    return fieldsOf(await read);
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return null;
    throw error;
  }
}
