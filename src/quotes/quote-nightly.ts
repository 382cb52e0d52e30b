import { Injectable } from '@nestjs/common';
import { DataSource, Like, MoreThan } from 'typeorm';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { NightlyTask } from 'src/core/schedule/nightly-tasks';
import { UnitOfWork } from 'src/database/unit-of-work';
import { Quote } from './entities/quote.entity';
import { QuoteEvents } from './quote-events';

/** Quotes handled per transaction, as the nightly job's own batches. */
const BATCH = 200;

/** quote/nightly, every night, for new and open quotes only (SPEC "Events"). */
@Injectable()
export class QuoteNightly {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly events: QuoteEvents,
  ) {}

  @NightlyTask('quote nightly')
  async announceOpenQuotes(): Promise<number> {
    let announced = 0;
    let afterId = 0;
    for (;;) {
      const page = await this.dataSource.getRepository(Quote).find({
        select: { quote_id: true },
        where: { quote_status_str: Like('open-%'), quote_id: MoreThan(afterId) },
        order: { quote_id: 'ASC' },
        take: BATCH,
      });
      if (page.length === 0) return announced;
      afterId = page[page.length - 1].quote_id;
      await this.uow.run(async (tx) => {
        for (const { quote_id } of page) await this.events.record(tx, SYSTEM_CONTEXT, quote_id, ['nightly']);
      });
      announced += page.length;
    }
  }
}
