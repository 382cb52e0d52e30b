import { Controller } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { ResourceController } from 'src/core/resource/resource-controller';
import { CreateInvoiceDto, UpdateInvoiceDto } from './dto/invoice-fields.dto';
import { InvoicesService } from './invoices.service';
import { WireFullInvoice, WireInvoice } from './wire-invoice';

@Controller('api/v3/invoice')
export class InvoicesController extends ResourceController({
  resource: 'invoice',
  noun: 'invoice',
  plural: 'invoices',
  create: CreateInvoiceDto,
  update: UpdateInvoiceDto,
  remove: true,
  actions: true,
  response: { one: WireFullInvoice, many: WireInvoice },
}) {
  constructor(protected readonly reads: InvoicesService) {
    super();
  }

  protected override removeObject(ctx: RequestContext, ref: string): Promise<boolean> {
    return this.reads.delete(ctx, ref);
  }
}
