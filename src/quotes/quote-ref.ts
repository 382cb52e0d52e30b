import { RefTarget } from 'src/core/refs/ref-resolver';
import { Quote } from './entities/quote.entity';

export const QUOTE_REF: RefTarget<Quote> = { entity: Quote, idColumn: 'quote_id', resource: 'quote' };
