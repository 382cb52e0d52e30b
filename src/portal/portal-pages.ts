import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { businessNameOf, Seller, sellerOf } from 'src/config/business-name';
import { lazyRequire } from 'src/core/lazy/lazy-require';
import { formatAmount } from 'src/core/money/money-format';
import { decimalOf, text } from './documents/wire-values';

const handlebars = lazyRequire<typeof Handlebars>('handlebars');

/** Server-rendered portal pages: handlebars templates in ./templates, each inside layout.hbs. */
@Injectable()
export class PortalPages {
  private hbsInstance?: typeof Handlebars;
  private readonly compiled = new Map<string, Handlebars.TemplateDelegate>();
  readonly businessName: string;
  /** The seller printed on invoices, quotes and statements (pages and PDFs). */
  readonly seller: Seller;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.businessName = businessNameOf(config);
    this.seller = sellerOf(config);
  }

  /** Handlebars with the helper and partials, made by the first page (not at start). */
  private get hbs(): typeof Handlebars {
    if (this.hbsInstance) return this.hbsInstance;
    const hbs = handlebars().create();
    // Amounts arrive as wire numbers already rounded to cents; Decimal prints them exactly.
    hbs.registerHelper('money', (symbol: unknown, value: unknown) => formatAmount(text(symbol), decimalOf(value)));
    for (const partial of ['card-fields', 'bank-fields', 'document', 'seller', 'stripe-card'])
      hbs.registerPartial(partial, this.source(partial));
    return (this.hbsInstance = hbs);
  }

  render(name: string, data: Record<string, unknown>): string {
    const context = { businessName: this.businessName, ...data };
    return this.template('layout')({ ...context, body: this.template(name)(context) });
  }

  send(res: Response, status: number, name: string, data: Record<string, unknown>): void {
    // Pages show a customer's money and carry tokens: never cached, never in a Referer.
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    res.status(status).type('html').send(this.render(name, data));
  }

  /** A readable error page (bad links answer 404/410 pages, never the API's JSON). */
  error(res: Response, status: number, message: string): void {
    const title = status === 410 ? 'Link expired' : status === 404 ? 'Not found' : 'Something went wrong';
    this.send(res, status, 'error', { title, message });
  }

  private source(name: string): string {
    return readFileSync(join(__dirname, 'templates', `${name}.hbs`), 'utf8');
  }

  private template(name: string): Handlebars.TemplateDelegate {
    let template = this.compiled.get(name);
    if (!template) {
      template = this.hbs.compile(this.source(name));
      this.compiled.set(name, template);
    }
    return template;
  }
}
