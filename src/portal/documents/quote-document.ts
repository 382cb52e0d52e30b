import Decimal from 'decimal.js';
import { formatAmount } from 'src/core/money/money-format';
import { quoteParts } from 'src/quotes/quote-parts';
import { documentLines, documentParty, PrintedDocument } from './printed-document';
import { decimalOf, text } from './wire-values';

type Wire = Record<string, unknown>;

/** Where a quote stands for its customer: what its links may still do. */
export type QuoteStanding = 'open' | 'accepted' | 'rejected' | 'expired';

/** A quote as printed: the shared document plus where it stands. */
export interface QuoteDocument extends PrintedDocument {
  standing: QuoteStanding;
  paycycleName: string;
}

/**
 * An open quote past its `validuntil_date` (the last day it may be accepted, in the
 * account's zone) is expired: its links no longer accept or reject it.
 */
export function quoteStanding(quote: Wire, today: string): QuoteStanding {
  if (quote.quote_status_str === 'closed-won') return 'accepted';
  if (quote.quote_status_str === 'closed-lost') return 'rejected';
  const validUntil = text(quote.validuntil_date);
  return validUntil !== '' && validUntil < today ? 'expired' : 'open';
}

/**
 * The price of one unit when the line has one: its `line_rate`, or a flat tierset's base.
 * Unit, volume and tiered prices depend on the quantity: the rate is left blank.
 */
function unitRate(line: Wire): Decimal | null {
  if (line.line_rate !== null && line.line_rate !== undefined) return decimalOf(line.line_rate);
  const tierset = line.tierset as Wire | null | undefined;
  return tierset?.pricemodel === 'fla' ? decimalOf(tierset.base) : null;
}

/**
 * Builds the printed quote from the API's reads of the quote (with `line_items`) and its
 * customer. A recurring quote shows what acceptance bills (one-time lines, setup fees, the
 * first cycle) apart from what each cycle bills after it ("Then monthly").
 */
export function quoteDocument(businessName: string, quote: Wire, customer: Wire, today: string): QuoteDocument {
  const symbol = text(quote.currency_symbol);
  const money = (value: unknown): string => formatAmount(symbol, decimalOf(value));
  const standing = quoteStanding(quote, today);
  const oneTime = quote.paycycle === 'one';
  const paycycleName = text(quote.paycycle_name);
  const validUntil = text(quote.validuntil_date);
  const setup = decimalOf(quote.setup);
  const lines = (quote.line_items as Wire[] | undefined) ?? [];
  const { onceOnly, recurring } = quoteParts(quote);
  return {
    businessName,
    kind: 'Quote',
    number: text(quote.refnumber) || text(quote.quote_id),
    facts: [
      { label: 'Date', value: text(quote.date) },
      ...(validUntil ? [{ label: 'Valid until', value: validUntil }] : []),
      { label: 'Billed', value: oneTime ? 'Once' : paycycleName },
    ],
    status: standing === 'expired' ? 'Expired' : text(quote.quote_status_name),
    isSettled: standing === 'accepted',
    ...documentParty(quote, customer),
    lines: documentLines(lines, symbol, unitRate),
    totals: [
      { label: 'Subtotal', amount: money(quote.subtotal) },
      ...(decimalOf(quote.taxes).isZero() ? [] : [{ label: 'Taxes', amount: money(quote.taxes) }]),
      ...(oneTime ? [{ label: 'Total', amount: money(quote.total), strong: true }] : []),
      ...(oneTime || onceOnly.isZero() ? [] : [{ label: 'One-time items', amount: formatAmount(symbol, onceOnly) }]),
      ...(setup.isZero() ? [] : [{ label: 'Setup fees', amount: formatAmount(symbol, setup) }]),
      { label: 'Due on acceptance', amount: money(quote.upfront), strong: true, id: 'upfront' },
      // What each cycle bills after the first: the quote's cycle without its one-time part.
      ...(oneTime
        ? []
        : [
            {
              label: `Then ${paycycleName.toLowerCase()}`,
              amount: formatAmount(symbol, recurring),
              strong: true,
              id: 'recurring',
            },
          ]),
    ],
    standing,
    paycycleName,
  };
}

/** What the customer is told about a quote that can no longer be answered. */
export function standingNote(doc: QuoteDocument): string | null {
  switch (doc.standing) {
    case 'accepted':
      return `Quote #${doc.number} was accepted. It can no longer be changed.`;
    case 'rejected':
      return `Quote #${doc.number} was rejected. Ask us for a new quote if you changed your mind.`;
    case 'expired':
      return `Quote #${doc.number} has expired and can no longer be accepted. Ask us for a new quote.`;
    default:
      return null;
  }
}
