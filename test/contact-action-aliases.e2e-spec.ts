import { Contact } from 'src/customers/entities/contact.entity';
import { LoginToken } from 'src/contacts/entities/login-token.entity';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

/** The older API's action names stay as aliases (DESIGN §4 Actions). */
describe('user action aliases of the older API', () => {
  let t: TestApp;
  let customerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    customerId = await createId(t, '/api/v3/customer', { company: 'Aliases' });
  });
  afterAll(async () => {
    await t.close();
  });

  const contact = (email: string) => createId(t, '/api/v3/user', { customer_id: customerId, email, username: email });
  const mailsOf = (id: number) =>
    t.dataSource.getRepository(MailMessage).find({ where: { context_str: 'user', context_id: id } });
  const hashOf = async (id: number) =>
    (await t.dataSource.getRepository(Contact).findOneOrFail({ where: { user_id: id } })).password_hash;

  it('reset_password with a password sets it and mails it, as password does', async () => {
    const id = await contact('set@example.com');
    const res = await t.post(`/api/v3/user/${id}?action=reset_password`, { password: 'a new long password' });
    expect(res.body).toEqual({ code: 200, status: 'OK', message: '', details: {}, response: true });
    expect(await hashOf(id)).toMatch(/^\$argon2/);
    expect(await mailsOf(id)).toHaveLength(1);
  });

  it('reset_password without a password mails a reset link, in both URL forms', async () => {
    const id = await contact('reset@example.com');
    await t.post(`/api/v3/user/${id}?action=reset_password`).expect(200);
    await t.post(`/api/v3/user/${id}/_action/reset_password`, []).expect(200);
    expect(await hashOf(id)).toBeNull();
    const mails = await mailsOf(id);
    expect(mails).toHaveLength(2);
    for (const mail of mails) expect(mail.body).toContain('/portal/password-reset/');
    await t.post(`/api/v3/user/${id}?action=reset_password&_flag_emails=0`, { password: 'quiet password' }).expect(200);
    expect(await mailsOf(id)).toHaveLength(2);
  });

  it('reset_password checks its body as password does', async () => {
    const id = await contact('bad@example.com');
    const res = await t.post(`/api/v3/user/${id}?action=reset_password`, { secret: 'x' }).expect(400);
    expect(res.body.message).toContain('"secret"');
    await t.post('/api/v3/user/999999?action=reset_password').expect(404);
  });

  it('login returns a one-time login URL, as getLoginURL does, with a destination', async () => {
    const id = await contact('login@example.com');
    const plain = await t.post(`/api/v3/user/${id}?action=login`).expect(200);
    expect(plain.body.response).toMatch(/^https:\/\/billing\.example\.test\/portal\/login\/[A-Za-z0-9_-]{43}$/);
    const toInvoices = await t.post(`/api/v3/user/${id}/_action/login`, { destination: 'invoices' }).expect(200);
    expect(toInvoices.body.response).not.toBe(plain.body.response);
    const tokens = await t.dataSource.getRepository(LoginToken).find({ where: { user_id: id, purpose: 'login' } });
    expect(tokens.map((row) => row.destination).sort()).toEqual(['invoices', null].sort());
    await t.post(`/api/v3/user/${id}?action=login`, { destination: 'nowhere' }).expect(400);
  });
});
