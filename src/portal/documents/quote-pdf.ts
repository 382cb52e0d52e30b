import { documentSheet } from './document-pdf';
import { QuoteDocument } from './quote-document';

/** The quote's `url_pdflink`. */
export function quotePdf(d: QuoteDocument): Promise<Buffer> {
  const validity = d.facts.find((f) => f.label === 'Valid until');
  const closing =
    d.standing === 'open'
      ? `This quote is open${validity ? ` until ${validity.value}` : ''}: accept it from the link in our message.`
      : `This quote is ${d.status.toLowerCase()}.`;
  return documentSheet(d).note(closing).note(`Thank you for considering ${d.businessName}.`).finish();
}
