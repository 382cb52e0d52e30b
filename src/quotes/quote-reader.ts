import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { Item } from 'src/items/entities/item.entity';
import { loadTiersetsById } from 'src/items/tierset-loader';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { QuoteLine } from './entities/quote-line.entity';
import { Quote } from './entities/quote.entity';
import { QuotePresenter, QuoteLineWithItem } from './quote.presenter';
import { WireFullQuote, WireQuote } from './wire-quote';

/**
 * Reads quotes for the wire: a page is its one query (sums are stored); a full quote adds
 * its lines with their tiersets, and `sent`: the messages the `email` action sent.
 */
@Injectable()
export class QuoteReader {
  constructor(private readonly presenter: QuotePresenter) {}

  overviews(quotes: Quote[]): WireQuote[] {
    return quotes.map((q) => this.presenter.overview(q));
  }

  async full(m: EntityManager, quoteId: number): Promise<WireFullQuote> {
    const quote = await m.findOne(Quote, { where: { quote_id: quoteId } });
    if (!quote) throw ApiError.notFound('quote');
    const lines = await this.lines(m, quoteId);
    const tiersets = await loadTiersetsById(
      m,
      lines.flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
    );
    const sent = await m.find(MailMessage, {
      where: { context_str: 'quote', context_id: quoteId },
      order: { mail_message_id: 'ASC' },
    });
    // Added to the overview, not spread into a new literal: see ARCHITECTURE.md ("Objects on hot paths").
    return Object.assign(this.presenter.overview(quote), {
      line_items: lines.map((l) =>
        this.presenter.line(l, l.tierset_id === null ? undefined : tiersets.get(l.tierset_id)),
      ),
      sent: this.presenter.sent(sent),
    });
  }

  lines(m: EntityManager, quoteId: number): Promise<QuoteLineWithItem[]> {
    return m
      .createQueryBuilder(QuoteLine, 'l')
      .leftJoinAndMapOne('l.item', Item, 'it', 'it.item_id = l.item_id')
      .where('l.quote_id = :quoteId', { quoteId })
      .orderBy('l.sort_order', 'ASC')
      .addOrderBy('l.line_item_id', 'ASC')
      .getMany();
  }
}
