import Decimal from 'decimal.js';
import { Seller } from 'src/config/business-name';
import { formatAmount } from 'src/core/money/money-format';
import { decimalOf, text } from './wire-values';

type Wire = Record<string, unknown>;

export interface DocumentLine {
  description: string;
  quantity: string;
  rate: string;
  total: string;
}

/** A row under the lines: subtotal, taxes, total, and what the kind of document adds. */
export interface DocumentTotal {
  label: string;
  amount: string;
  strong?: boolean;
  /** An element id on the HTML page (tests and the browser read `#balance`). */
  id?: string;
}

/**
 * What an invoice and a quote share when printed, already formatted: the HTML page
 * (templates/document.hbs) and the PDF (document-pdf.ts) both draw it, so the two kinds
 * look alike and never disagree with their PDF.
 */
export interface PrintedDocument {
  businessName: string;
  /** Who sells: name, address, tax id and logo (set by DocumentsService from the configuration). */
  seller?: Seller;
  /** `Invoice`, `Quote`: the title on the page and the PDF. */
  kind: string;
  number: string;
  /** Label/value facts beside the title (date, due or valid until); the status follows them. */
  facts: { label: string; value: string }[];
  status: string;
  /** Shown as a settled (green) status. */
  isSettled: boolean;
  customerName: string;
  billTo: string;
  lines: DocumentLine[];
  totals: DocumentTotal[];
}

/** The lines as printed: amounts before tax (taxes are listed under the subtotal). */
export function documentLines(lines: Wire[], symbol: string, rateOf: (line: Wire) => Decimal | null): DocumentLine[] {
  return lines.map((line) => {
    const rate = rateOf(line);
    return {
      description: text(line.descrip) || text(line.item_name),
      quantity: decimalOf(line.line_quantity).toString(),
      rate: rate === null ? '' : formatAmount(symbol, rate),
      total: formatAmount(symbol, decimalOf(line.line_subtotal)),
    };
  });
}

/**
 * The customer's name and the document's own billing address, else the customer's (a
 * quote carries an address only when one was given for it).
 */
export function documentParty(record: Wire, customer: Wire): { customerName: string; billTo: string } {
  return { customerName: text(customer.display_as), billTo: text(record.bill_block) || text(customer.bill_block) };
}
