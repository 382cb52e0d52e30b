import { Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from 'src/core/auth/public.decorator';
import { ApiError } from 'src/core/envelope/api-error';
import { DocumentsService } from 'src/portal/documents/documents.service';
import { sendPdf } from 'src/portal/documents/pdf-response';
import { decimalOf, text } from 'src/portal/documents/wire-values';
import { QuoteDocument, standingNote } from 'src/portal/documents/quote-document';
import { quotePdf } from 'src/portal/documents/quote-pdf';
import { PortalCsrf } from 'src/portal/portal-csrf';
import { PortalErrorFilter } from 'src/portal/portal-error.filter';
import { PortalPages } from 'src/portal/portal-pages';
import { PortalRecords, Wire } from 'src/portal/portal-records';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { answerRedirect } from './answer-redirect';
import { customerContext } from 'src/portal/customer-context';

const UNKNOWN_QUOTE = 'This quote link is not valid. Please use the latest link we sent you.';

type Answer = 'accept' | 'reject';

const ANSWERS = {
  accept: { action: 'convert', done: 'accepted', verb: 'Accept', redirect: 'url_acceptredirect' },
  reject: { action: 'reject', done: 'rejected', verb: 'Reject', redirect: 'url_rejectredirect' },
} as const;

/**
 * The quote's hosted links (`url_permalink`, `url_pdflink`, `url_acceptlink`,
 * `url_rejectlink`): open to whoever holds the token, like the invoice's. Answering takes
 * a CSRF-checked POST from the link's page: a GET never changes the quote, since mail
 * scanners open links. The answer runs the API's own action, so its effects and events
 * are the API's.
 */
@Public()
@UseFilters(PortalErrorFilter)
@Controller('r/quote')
export class QuoteLinksController {
  constructor(
    private readonly records: PortalRecords,
    private readonly documents: DocumentsService,
    private readonly pages: PortalPages,
    private readonly csrf: PortalCsrf,
    private readonly actions: ActionCatalog,
  ) {}

  @Get('view/:token')
  async view(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const quote = await this.records.quoteByToken(token);
    if (!quote) return this.pages.error(res, 404, UNKNOWN_QUOTE);
    const doc = await this.documents.quote(quote);
    this.pages.send(res, 200, 'quote', {
      title: `Quote #${doc.number}`,
      doc,
      isOpen: doc.standing === 'open',
      standingNote: standingNote(doc),
      acceptUrl: quote.url_acceptlink,
      rejectUrl: quote.url_rejectlink,
      pdfUrl: quote.url_pdflink,
    });
  }

  @Get('pdf/:token')
  async pdf(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const quote = await this.records.quoteByToken(token);
    if (!quote) return this.pages.error(res, 404, UNKNOWN_QUOTE);
    const doc = await this.documents.quote(quote);
    sendPdf(res, `quote-${doc.number}.pdf`, await quotePdf(doc));
  }

  @Get('accept/:token')
  acceptPage(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answerPage('accept', token, req, res);
  }

  @Get('reject/:token')
  rejectPage(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answerPage('reject', token, req, res);
  }

  /** A quote is paid by accepting it: its pay link is the accept page (then the invoice's pay link). */
  @Get('pay/:token')
  payPage(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answerPage('accept', token, req, res);
  }

  @Post('accept/:token')
  accept(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer('accept', token, req, res);
  }

  @Post('reject/:token')
  reject(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer('reject', token, req, res);
  }

  /** The quote with a confirm form, or where it stands once it can no longer be answered. */
  private async answerPage(answer: Answer, token: string, req: Request, res: Response): Promise<void> {
    const quote = await this.records.quoteByToken(token);
    if (!quote) return this.pages.error(res, 404, UNKNOWN_QUOTE);
    await this.render(answer, quote, req, res);
  }

  private async answer(answer: Answer, token: string, req: Request, res: Response): Promise<void> {
    const quote = await this.records.quoteByToken(token);
    if (!quote) return this.pages.error(res, 404, UNKNOWN_QUOTE);
    const doc = await this.documents.quote(quote);
    if (doc.standing !== 'open') return this.render(answer, quote, req, res, doc);
    try {
      await this.actions.runObject('quote', ANSWERS[answer].action, String(quote.quote_id), {}, customerContext(req));
    } catch (error) {
      // Answered meanwhile (another tab, the business through the API): show where it stands.
      if (!(error instanceof ApiError) || error.code !== 400) throw error;
      const now = (await this.records.quoteByToken(token)) ?? quote;
      return this.render(answer, now, req, res);
    }
    // Post/redirect/get: the link's own page now shows the answer, and a reload answers nothing.
    res.redirect(303, answerRedirect(quote[ANSWERS[answer].redirect]) ?? pathOf(text(quote[`url_${answer}link`])));
  }

  private async render(answer: Answer, quote: Wire, req: Request, res: Response, known?: QuoteDocument): Promise<void> {
    const doc = known ?? (await this.documents.quote(quote));
    const { done, verb } = ANSWERS[answer];
    const answered = doc.standing === done;
    // A quote answered the other way or expired is gone for this link (410); one answered
    // the same way is this link's own confirmation (200).
    const status = doc.standing === 'open' || answered ? 200 : 410;
    // An accepted one-time quote is an invoice now: offer to pay it right away.
    const invoice = answered && quote.invoice_id ? await this.records.invoice(Number(quote.invoice_id)) : null;
    this.pages.send(res, status, 'quote-answer', {
      title: answered ? `Quote #${doc.number} ${done}` : `${verb} quote #${doc.number}`,
      doc,
      verb,
      isAccept: answer === 'accept',
      isOpen: doc.standing === 'open',
      answered,
      standingNote: answered ? `Thank you: quote #${doc.number} is ${done}.` : standingNote(doc),
      viewUrl: quote.url_permalink,
      pdfUrl: quote.url_pdflink,
      action: pathOf(text(quote[`url_${answer}link`])),
      payUrl: invoice && decimalOf(invoice.balance).gt(0) ? invoice.url_paylink : null,
      csrf: doc.standing === 'open' ? this.csrf.token(req, res) : null,
    });
  }
}

/** The path of one of our links (they carry PUBLIC_URL; forms and redirects stay on this host). */
function pathOf(url: string): string {
  return new URL(url).pathname;
}
