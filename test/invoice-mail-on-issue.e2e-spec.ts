import { BillingRun } from 'src/billing-runs/runs/billing-run';
import { JobQueue } from 'src/core/jobs/job-queue';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { MAIL_DELIVER_JOB } from 'src/mail/mail.service';
import { createId } from './support/catalog-fixtures';
import { SmtpInbox } from './support/smtp-inbox';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

const MINUTE_MS = 60_000;

/**
 * Issue 37 (defect 12), DESIGN §6 "Billing runs": every invoice the server issues from a
 * subscription is mailed once, after the commit, to the billing contacts of a customer whose
 * `invoice_delivery` is `email` (template `invoice`, recorded in `sent`); never twice across
 * reruns, and not lost when the process dies between the commit and the send.
 */
describe('invoices mailed when issued', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  let plan: number;

  beforeAll(async () => {
    inbox = new SmtpInbox();
    t = await createTestApp({ TEST_CLOCK: 'true', SMTP_URL: await inbox.start() });
    // 2026-03-01 10:00 in Chicago.
    t.clock.set(new Date('2026-03-01T16:00:00Z'));
    plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 30 } });
  });
  afterAll(async () => {
    await t.close();
    await inbox.stop();
  });

  const invoicesOf = async (pkg: number) =>
    (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC`).expect(200)).body
      .response as Json[];
  const mailsOf = (invoiceId: number) =>
    t.dataSource.getRepository(MailMessage).find({
      where: { context_str: 'invoice', context_id: invoiceId },
      order: { mail_message_id: 'ASC' },
    });

  it('mails each run-issued invoice once to an e-mail customer’s contacts, none to a print customer', async () => {
    const mailed = await createId(t, '/api/v3/customer', { company: 'Mailed', superuser_email: 'ap@mailed.test' });
    await createId(t, '/api/v3/user', { customer_id: mailed, email: 'cfo@mailed.test', name: 'CFO' });
    const printed = await createId(t, '/api/v3/customer', {
      company: 'Printed',
      superuser_email: 'ap@printed.test',
      invoice_delivery: 'print',
    });
    const mailedPkg = await createId(t, '/api/v3/package', { customer_id: mailed, line_items: [{ item_id: plan }] });
    const printedPkg = await createId(t, '/api/v3/package', { customer_id: printed, line_items: [{ item_id: plan }] });
    inbox.takeAll();

    // To 2026-05-01 10:01: the cycles of March, April and May, 30.00 each.
    await moveClock(t, '2026-05-01T16:01:00Z');
    const invoices = await invoicesOf(mailedPkg);
    expect(invoices.map((i) => [i.date, i.total])).toEqual([
      ['2026-03-01', 30],
      ['2026-04-01', 30],
      ['2026-05-01', 30],
    ]);
    expect(await invoicesOf(printedPkg)).toHaveLength(3);

    const received = inbox.takeAll();
    // Three invoices × one message each (to both contacts); nothing for the print customer.
    expect(received.map((m) => [m.subject, [...m.recipients].sort()])).toEqual(
      invoices.map((i) => [`Invoice #${i.invoice_id}`, ['ap@mailed.test', 'cfo@mailed.test']]),
    );
    expect(received[0].content).toContain('Total: $ 30.00');
    for (const invoice of invoices) {
      const [mail, ...more] = await mailsOf(invoice.invoice_id);
      expect(more).toEqual([]);
      expect(mail).toMatchObject({ status: 'sent', to_addr: 'ap@mailed.test, cfo@mailed.test' });
      const sent = (await t.get(`/api/v3/invoice/${invoice.invoice_id}`).expect(200)).body.response.sent as Json[];
      expect(sent.map((s) => [s.method, s.email, s.mail_message_id])).toEqual([
        ['email', 'ap@mailed.test, cfo@mailed.test', mail.mail_message_id],
      ]);
    }
    for (const invoice of await invoicesOf(printedPkg)) expect(await mailsOf(invoice.invoice_id)).toEqual([]);

    // A rerun as of the same moment bills nothing and mails nothing.
    const again = await t.app.get(BillingRun).run(t.clock.now());
    await t.drainJobs();
    expect(again.invoices).toBe(0);
    expect(inbox.takeAll()).toEqual([]);
  });

  it('mails an invoice a subscription action issues; _flag_emails=0 mails none', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Action', superuser_email: 'ap@action.test' });
    const pkg = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    inbox.takeAll();
    await t.post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(200);
    await t.drainJobs();
    const [first] = await invoicesOf(pkg);
    expect(inbox.takeAll().map((m) => [m.subject, m.recipients])).toEqual([
      [`Invoice #${first.invoice_id}`, ['ap@action.test']],
    ]);

    const quiet = await createId(t, '/api/v3/customer', { company: 'Quiet', superuser_email: 'ap@quiet.test' });
    const quietPkg = await createId(t, '/api/v3/package', { customer_id: quiet, line_items: [{ item_id: plan }] });
    await t.post(`/api/v3/package/${quietPkg}?action=invoice&_flag_emails=0`, {}).expect(200);
    await t.drainJobs();
    const [quietInvoice] = await invoicesOf(quietPkg);
    expect(await mailsOf(quietInvoice.invoice_id)).toEqual([]);
    expect(inbox.takeAll()).toEqual([]);
  });

  it('sends a mail whose after-commit work died with its process once, when the sweeper finds it', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Crash', superuser_email: 'ap@crash.test' });
    const pkg = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await t.drainJobs();
    inbox.takeAll();
    // The process "dies" after the COMMIT: the job that would send the message is never queued.
    const jobs = t.app.get(JobQueue);
    const enqueue = jobs.enqueue.bind(jobs);
    const lost = jest
      .spyOn(jobs, 'enqueue')
      .mockImplementation((name, payload, options) =>
        name === MAIL_DELIVER_JOB ? Promise.resolve() : enqueue(name, payload, options),
      );
    await moveClock(t, new Date(t.clock.now().getTime() + MINUTE_MS));
    lost.mockRestore();
    const invoices = await invoicesOf(pkg);
    expect(invoices).toHaveLength(1);
    const [queued] = await mailsOf(invoices[0].invoice_id);
    expect(queued.status).toBe('queued');
    expect(inbox.takeAll()).toEqual([]);

    // Within its grace minute the sweeper leaves it to its own process; after it, sends it once.
    await moveClock(t, new Date(t.clock.now().getTime() + 30_000));
    expect(inbox.takeAll()).toEqual([]);
    await moveClock(t, new Date(t.clock.now().getTime() + 2 * MINUTE_MS));
    expect(inbox.takeAll().map((m) => m.subject)).toEqual([`Invoice #${invoices[0].invoice_id}`]);
    await moveClock(t, new Date(t.clock.now().getTime() + 2 * MINUTE_MS));
    expect(inbox.takeAll()).toEqual([]);
    expect(await mailsOf(invoices[0].invoice_id)).toEqual([expect.objectContaining({ status: 'sent' })]);
  });
});
