import { Controller } from '@nestjs/common';
import { ResourceController } from 'src/core/resource/resource-controller';
import { CreateQuoteDto, UpdateQuoteDto } from './dto/quote-fields.dto';
import { QuotesService } from './quotes.service';
import { WireFullQuote, WireQuote } from './wire-quote';

@Controller('api/v3/quote')
export class QuotesController extends ResourceController({
  resource: 'quote',
  noun: 'quote',
  plural: 'quotes',
  create: CreateQuoteDto,
  update: UpdateQuoteDto,
  actions: true,
  response: { one: WireFullQuote, many: WireQuote },
}) {
  constructor(protected readonly reads: QuotesService) {
    super();
  }
}
