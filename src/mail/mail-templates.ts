import { Inject, Injectable } from '@nestjs/common';
import type Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { businessNameOf } from 'src/config/business-name';
import { lazyRequire } from 'src/core/lazy/lazy-require';

const handlebars = lazyRequire<typeof Handlebars>('handlebars');

export type MailTemplateName =
  | 'invoice'
  | 'payment-receipt'
  | 'payment-failure'
  | 'dunning-reminder'
  | 'password-reset'
  | 'password-set'
  | 'welcome'
  | 'quote';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const URL_PATTERN = /(https?:\/\/[^\s<]+)/g;

/**
 * The default messages (templates/<name>.hbs: a `Subject:` line, a blank line, the plain
 * text). The HTML part is the same text in layout.html.hbs, its links made clickable, so
 * the two parts never say different things. Callers' overrides (`subject`, `body`, `html`)
 * replace the matching part.
 */
@Injectable()
export class MailTemplates {
  private hbs?: typeof Handlebars;
  private readonly compiled = new Map<string, Handlebars.TemplateDelegate>();
  private readonly businessName: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.businessName = businessNameOf(config);
  }

  render(name: MailTemplateName, data: Record<string, unknown>): RenderedMail {
    // Plain text: nothing to escape (HTML escaping would show &amp; to the reader).
    const source = this.template(name, { noEscape: true })({ businessName: this.businessName, ...data });
    const [first, ...rest] = source.split('\n');
    if (!first.startsWith('Subject: ')) throw new Error(`Mail template ${name} does not start with a Subject line.`);
    const subject = first.slice('Subject: '.length).trim();
    const text = rest.join('\n').trim() + '\n';
    return { subject, text, html: this.html(subject, text) };
  }

  /** The HTML part of a plain-text message: its paragraphs in layout.html.hbs, links made clickable. */
  html(subject: string, text: string): string {
    const paragraphs = text
      .trim()
      .split(/\n{2,}/)
      .map((p) => ({ parts: p.split(URL_PATTERN).map((part, i) => (i % 2 === 1 ? { link: part } : { text: part })) }));
    return this.template('layout.html', {})({ businessName: this.businessName, subject, paragraphs });
  }

  private template(name: string, options: CompileOptions): Handlebars.TemplateDelegate {
    let template = this.compiled.get(name);
    if (!template) {
      this.hbs ??= handlebars().create();
      template = this.hbs.compile(readFileSync(join(__dirname, 'templates', `${name}.hbs`), 'utf8'), options);
      this.compiled.set(name, template);
    }
    return template;
  }
}
