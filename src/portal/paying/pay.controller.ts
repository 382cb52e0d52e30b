import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from 'src/core/auth/public.decorator';
import { ApiError } from 'src/core/envelope/api-error';
import { formatAmount } from 'src/core/money/money-format';
import { DocumentsService } from 'src/portal/documents/documents.service';
import { decimalOf, text } from 'src/portal/documents/wire-values';
import { PortalCsrf } from 'src/portal/portal-csrf';
import { PortalErrorFilter } from 'src/portal/portal-error.filter';
import { PortalPages } from 'src/portal/portal-pages';
import { PortalRecords, Wire } from 'src/portal/portal-records';
import { InvoicePayer } from './invoice-payer';
import { paymethodForm } from './paymethod-form';
import { PaymethodSaver } from './paymethod-saver';
import { customerContext } from 'src/portal/customer-context';
import { CardEntry } from './card-entry';

const UNKNOWN_LINK = 'This payment link is not valid. Please use the latest link we sent you.';

interface PayTarget {
  invoice: Wire;
  scheduleId: number | null;
  scheduleDue: string | null;
  due: string | null;
}

/** `url_paylink` (whole invoice or one schedule entry) and `url_paymethodlink`. */
@Public()
@UseFilters(PortalErrorFilter)
@Controller('r')
export class PayController {
  constructor(
    private readonly records: PortalRecords,
    private readonly documents: DocumentsService,
    private readonly pages: PortalPages,
    private readonly csrf: PortalCsrf,
    private readonly payer: InvoicePayer,
    private readonly saver: PaymethodSaver,
    private readonly entry: CardEntry,
  ) {}

  /** The script that hands Stripe Elements' card to the forms (a file: the pages' CSP allows no inline script). */
  @Get('assets/stripe-card.js')
  stripeScript(@Res() res: Response): void {
    res.set('Cache-Control', 'public, max-age=300').type('application/javascript').send(this.entry.script());
  }

  @Get(['trans/pay/:token', 'trans/pay/:token/:entry'])
  async payPage(
    @Param('token') token: string,
    @Param('entry') entry: string | undefined,
    @Query('paid') paid: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const target = await this.target(token, entry, res);
    if (target) await this.renderPay(req, res, 200, target, { paid: paid === '1' });
  }

  @Post(['trans/pay/:token', 'trans/pay/:token/:entry'])
  async pay(
    @Param('token') token: string,
    @Param('entry') entry: string | undefined,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const target = await this.target(token, entry, res);
    if (!target) return;
    if (target.due === null) return this.renderPay(req, res, 409, target, {});
    try {
      const form = this.entry.check(paymethodForm(body));
      const { invoice } = target;
      const confirmSecret = await this.payer.pay(
        customerContext(req),
        Number(invoice.customer_id),
        Number(invoice.invoice_id),
        target.scheduleId,
        form,
      );
      // 3-D Secure: the page has Stripe.js confirm with the payer's bank, then shows the receipt.
      if (confirmSecret) return this.renderPay(req, res, 200, target, { confirmSecret });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 400) throw error;
      return this.renderPay(req, res, 400, target, { error: error.message });
    }
    // Post/redirect/get: reloading the confirmation must not charge again.
    res.redirect(303, `${req.path}?paid=1`);
  }

  @Get('paymethod/i/:token')
  async paymethodPage(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const customer = await this.records.customerByToken(token);
    if (!customer)
      return this.pages.error(
        res,
        404,
        'This payment-method link is not valid. Please use the latest link we sent you.',
      );
    await this.renderPaymethod(req, res, 200, customer, {});
  }

  @Post('paymethod/i/:token')
  async savePaymethod(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const customer = await this.records.customerByToken(token);
    if (!customer)
      return this.pages.error(
        res,
        404,
        'This payment-method link is not valid. Please use the latest link we sent you.',
      );
    try {
      const form = this.entry.check(paymethodForm(body));
      const mask = await this.saver.save(customerContext(req), Number(customer.customer_id), form);
      const updated = (await this.records.customerByToken(token)) ?? customer;
      await this.renderPaymethod(req, res, 200, updated, {
        saved: `Saved: ${mask} is now your payment method on file.`,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 400) throw error;
      await this.renderPaymethod(req, res, 400, customer, { error: error.message });
    }
  }

  /** The invoice (and entry) a pay link names; answers the 404/410 page itself when there is none. */
  private async target(token: string, entry: string | undefined, res: Response): Promise<PayTarget | null> {
    const invoice = await this.records.invoiceByToken(token);
    if (!invoice) {
      this.pages.error(res, 404, UNKNOWN_LINK);
      return null;
    }
    if (invoice.is_void === true) {
      this.pages.error(res, 410, 'This invoice was cancelled (voided): nothing can be paid on it.');
      return null;
    }
    const symbol = text(invoice.currency_symbol);
    if (entry === undefined) {
      const balance = decimalOf(invoice.balance);
      return {
        invoice,
        scheduleId: null,
        scheduleDue: null,
        due: balance.gt(0) ? formatAmount(symbol, balance) : null,
      };
    }
    const scheduled = ((invoice.schedule as Wire[] | undefined) ?? []).find((s) => s.token === entry);
    if (!scheduled) {
      this.pages.error(res, 404, UNKNOWN_LINK);
      return null;
    }
    const balance = decimalOf(scheduled.balance);
    return {
      invoice,
      scheduleId: Number(scheduled.invoice_schedule_id),
      scheduleDue: text(scheduled.due_date),
      due: balance.gt(0) ? formatAmount(symbol, balance) : null,
    };
  }

  private async renderPay(
    req: Request,
    res: Response,
    status: number,
    target: PayTarget,
    extra: { paid?: boolean; error?: string; confirmSecret?: string },
  ): Promise<void> {
    const doc = await this.documents.invoice(target.invoice);
    this.pages.send(res, status, 'pay', {
      title: `Pay invoice #${doc.number}`,
      doc,
      amount: target.due,
      scheduleDue: target.scheduleDue,
      paid: extra.paid ? doc.balance : null,
      error: extra.error,
      action: req.path,
      viewUrl: target.invoice.url_permalink,
      csrf: this.csrf.token(req, res),
      ...this.entry.view(),
      payLabel: `Pay ${target.due ?? ''} by card`,
      confirmSecret: extra.confirmSecret,
      doneUrl: `${req.path}?paid=1`,
    });
  }

  private async renderPaymethod(
    req: Request,
    res: Response,
    status: number,
    customer: Wire,
    extra: { saved?: string; error?: string },
  ): Promise<void> {
    this.pages.send(res, status, 'paymethod', {
      title: 'Payment method',
      customerName: customer.display_as,
      onFile: await this.records.paymethodOnFile(customer),
      action: req.path,
      csrf: this.csrf.token(req, res),
      ...this.entry.view(),
      ...extra,
    });
  }
}
