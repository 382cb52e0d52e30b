import { Body, Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ContactsService } from 'src/contacts/contacts.service';
import { LinkPurpose, PortalLinksService } from 'src/contacts/portal-links.service';
import { Public } from 'src/core/auth/public.decorator';
import { ApiError } from 'src/core/envelope/api-error';
import { DocumentsService } from './documents/documents.service';
import { quoteStanding, standingNote } from './documents/quote-document';
import { CardEntry } from './paying/card-entry';
import { paymethodForm } from './paying/paymethod-form';
import { PaymethodSaver } from './paying/paymethod-saver';
import { PortalAccess } from './portal-access';
import { PortalCsrf } from './portal-csrf';
import { PortalErrorFilter } from './portal-error.filter';
import { PortalPages } from './portal-pages';
import { PortalRecords } from './portal-records';
import { PortalSession, PortalSessions } from './portal-session';
import { PortalSignIn } from './portal-sign-in';
import { customerContext } from './customer-context';

interface SignedIn extends PortalSession {
  userId: number;
  customerId: number;
}

const ID = /^[1-9]\d{0,9}$/;

/**
 * The customer portal (DESIGN §6): a contact signs in through a `getLoginURL` link, a
 * password-reset link or its password, then sees only its own customer (and children).
 */
@Public()
@UseFilters(PortalErrorFilter)
@Controller('portal')
export class PortalController {
  constructor(
    private readonly links: PortalLinksService,
    private readonly sessions: PortalSessions,
    private readonly csrf: PortalCsrf,
    private readonly pages: PortalPages,
    private readonly access: PortalAccess,
    private readonly records: PortalRecords,
    private readonly documents: DocumentsService,
    private readonly saver: PaymethodSaver,
    private readonly signIns: PortalSignIn,
    private readonly contacts: ContactsService,
    private readonly entry: CardEntry,
  ) {}

  /** A `getLoginURL` link: signs the contact in, to its destination or the home page. */
  @Get('login/:token')
  login(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.enter(token, 'login', req, res);
  }

  /** The link of the password-reset mail: signs the contact in to the password page. */
  @Get('password-reset/:token')
  passwordReset(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.enter(token, 'password-reset', req, res);
  }

  @Get()
  signInPage(@Req() req: Request, @Res() res: Response): void {
    if (this.signedIn(res)) return res.redirect(303, '/portal/home');
    this.pages.send(res, 200, 'sign-in', { title: 'Sign in', csrf: this.csrf.token(req, res) });
  }

  @Post('sign-in')
  async signIn(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const username = typeof body?.username === 'string' ? body.username : '';
    const password = typeof body?.password === 'string' ? body.password : '';
    const contact = username && password ? await this.signIns.check(username, password) : null;
    if (!contact) {
      return this.pages.send(res, 401, 'sign-in', {
        title: 'Sign in',
        error: 'The username or password is not right.',
        csrf: this.csrf.token(req, res),
      });
    }
    this.sessions.signIn(res, contact.user_id, contact.customer_id);
    res.redirect(303, '/portal/home');
  }

  @Post('logout')
  logout(@Res() res: Response): void {
    this.sessions.signOut(res);
    res.redirect(303, '/portal');
  }

  @Get('home')
  async home(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (session) await this.renderHome(req, res, session);
  }

  @Get('invoices')
  async invoices(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    const invoices = await this.records.invoicesOf(await this.access.customerIds(session.customerId));
    this.page(req, res, 'invoices', { title: 'Invoices', invoices });
  }

  @Get('invoices/:id')
  async invoice(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    const invoice = ID.test(id) ? await this.records.invoice(Number(id)) : null;
    // Someone else's invoice looks exactly like a missing one.
    const visible = await this.access.customerIds(session.customerId);
    if (!invoice || !visible.includes(Number(invoice.customer_id))) {
      return this.pages.error(res, 404, 'There is no such invoice on your account.');
    }
    const doc = await this.documents.invoice(invoice);
    this.page(req, res, 'invoice', {
      title: `Invoice #${doc.number}`,
      doc,
      payUrl: invoice.url_paylink,
      pdfUrl: invoice.url_pdflink,
    });
  }

  @Get('subscriptions')
  async subscriptions(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    const subscriptions = await this.records.subscriptionsOf(await this.access.customerIds(session.customerId));
    this.page(req, res, 'subscriptions', { title: 'Subscriptions', subscriptions });
  }

  @Get('quotes')
  async quotes(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    const today = this.documents.today();
    const quotes = (await this.records.quotesOf(await this.access.customerIds(session.customerId))).map((quote) => {
      const standing = quoteStanding(quote, today);
      return {
        ...quote,
        isOpen: standing === 'open',
        status: standing === 'expired' ? 'Expired' : quote.quote_status_name,
      };
    });
    this.page(req, res, 'quotes', { title: 'Quotes', quotes });
  }

  @Get('quotes/:id')
  async quote(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    const quote = ID.test(id) ? await this.records.quote(Number(id)) : null;
    // Someone else's quote looks exactly like a missing one.
    const visible = await this.access.customerIds(session.customerId);
    if (!quote || !visible.includes(Number(quote.customer_id))) {
      return this.pages.error(res, 404, 'There is no such quote on your account.');
    }
    const doc = await this.documents.quote(quote);
    this.page(req, res, 'quote', {
      title: `Quote #${doc.number}`,
      page: 'quotes',
      doc,
      isOpen: doc.standing === 'open',
      standingNote: standingNote(doc),
      acceptUrl: quote.url_acceptlink,
      rejectUrl: quote.url_rejectlink,
      pdfUrl: quote.url_pdflink,
    });
  }

  @Get('payments')
  async payments(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    const payments = await this.records.paymentsOf(await this.access.customerIds(session.customerId));
    this.page(req, res, 'payments', { title: 'Payments', payments });
  }

  @Get('info')
  async info(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (session) await this.renderInfo(req, res, session);
  }

  @Get('paymethods')
  async paymethods(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (session) await this.renderPaymethods(req, res, session, 200, {});
  }

  @Post('paymethods')
  async savePaymethod(@Body() body: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    try {
      const form = this.entry.check(paymethodForm(body));
      const mask = await this.saver.save(customerContext(req), session.customerId, form);
      await this.renderPaymethods(req, res, session, 200, {
        saved: `Saved: ${mask} is now your payment method on file.`,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 400) throw error;
      await this.renderPaymethods(req, res, session, 400, { error: error.message });
    }
  }

  @Get('password')
  async password(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (session) await this.renderPassword(req, res, session, 200, {});
  }

  @Post('password')
  async setPassword(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.require(res);
    if (!session) return;
    const password = typeof body?.password === 'string' ? body.password : '';
    const problem =
      password.length < 8
        ? 'The password must have at least 8 characters.'
        : password !== body?.confirm
          ? 'The two passwords are not the same.'
          : null;
    if (problem) return this.renderPassword(req, res, session, 400, { error: problem });
    // The contact typed it: it is not mailed back in clear.
    await this.contacts.password({ ...customerContext(req), sendEmails: false }, String(session.userId), password);
    await this.renderPassword(req, res, session, 200, { saved: true });
  }

  private async enter(token: string, purpose: LinkPurpose, req: Request, res: Response): Promise<void> {
    const link = await this.links.consume(token, purpose);
    if (!link) return this.pages.error(res, 410, 'This link has expired or was already used. Ask for a new one.');
    const contact = await this.signIns.contact(link.user_id);
    if (!contact) return this.pages.error(res, 410, 'This link has expired or was already used. Ask for a new one.');
    const session = this.sessions.signIn(res, contact.user_id, contact.customer_id) as SignedIn;
    // The page is answered here rather than by a redirect, so the token URL itself shows it once.
    switch (link.destination ?? 'home') {
      case 'invoices':
        return this.invoices(req, res);
      case 'payments':
        return this.payments(req, res);
      case 'info':
        return this.renderInfo(req, res, session);
      case 'paymethods':
        return this.renderPaymethods(req, res, session, 200, {});
      case 'paymethods-creditcard':
        return this.renderPaymethods(req, res, session, 200, { noBank: true, page: 'paymethods-creditcard' });
      case 'paymethods-ach':
        return this.renderPaymethods(req, res, session, 200, { noCard: true, page: 'paymethods-ach' });
      case 'password':
        return this.renderPassword(req, res, session, 200, {});
      case 'subscriptions':
        return this.subscriptions(req, res);
      default:
        return this.renderHome(req, res, session);
    }
  }

  /** The signed-in session, or null after answering 401 (a tampered cookie is named as such). */
  private require(res: Response): SignedIn | null {
    const session = this.signedIn(res);
    if (session) return session;
    const message = this.sessions.wasTampered(res)
      ? 'Your session could not be verified. Please sign in again with a new link.'
      : 'Please sign in first: open the link you were sent, or sign in at /portal.';
    this.pages.error(res, 401, message);
    return null;
  }

  private signedIn(res: Response): SignedIn | null {
    const session = this.sessions.current(res);
    return session.userId !== null && session.customerId !== null ? (session as SignedIn) : null;
  }

  private page(req: Request, res: Response, name: string, data: Record<string, unknown>, status = 200): void {
    this.pages.send(res, status, name, { signedIn: true, page: name, csrf: this.csrf.token(req, res), ...data });
  }

  private async renderHome(req: Request, res: Response, session: SignedIn): Promise<void> {
    const customer = await this.records.customer(session.customerId);
    const visible = await this.access.customerIds(session.customerId);
    const [invoices, quotes] = await Promise.all([this.records.invoicesOf(visible), this.records.quotesOf(visible)]);
    const openCount = invoices.filter((i) => i.invoice_status_state === 'o').length;
    const today = this.documents.today();
    const awaitingCount = quotes.filter((q) => quoteStanding(q, today) === 'open').length;
    this.page(req, res, 'home', { title: 'Home', customer, openCount, awaitingCount });
  }

  private async renderInfo(req: Request, res: Response, session: SignedIn): Promise<void> {
    const [customer, contact] = await Promise.all([
      this.records.customer(session.customerId),
      this.signIns.contact(session.userId),
    ]);
    this.page(req, res, 'info', { title: 'Account information', customer, contact });
  }

  private async renderPaymethods(
    req: Request,
    res: Response,
    session: SignedIn,
    status: number,
    extra: Record<string, unknown>,
  ): Promise<void> {
    const customer = await this.records.customer(session.customerId);
    this.page(
      req,
      res,
      'paymethod',
      {
        title: 'Payment methods',
        page: 'paymethods',
        customerName: customer.display_as,
        onFile: await this.records.paymethodOnFile(customer),
        action: '/portal/paymethods',
        ...this.entry.view(),
        ...extra,
      },
      status,
    );
  }

  private async renderPassword(
    req: Request,
    res: Response,
    session: SignedIn,
    status: number,
    extra: Record<string, unknown>,
  ): Promise<void> {
    const contact = await this.signIns.contact(session.userId);
    this.page(req, res, 'password', { title: 'Password', username: contact?.username, ...extra }, status);
  }
}
