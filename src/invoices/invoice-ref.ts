import { RefTarget } from 'src/core/refs/ref-resolver';
import { Invoice } from './entities/invoice.entity';

export const INVOICE_REF: RefTarget<Invoice> = { entity: Invoice, idColumn: 'invoice_id', resource: 'invoice' };
