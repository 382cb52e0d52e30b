import { ApiError } from 'src/core/envelope/api-error';
import { isPlainObject } from 'src/core/validation/validate-body';
import { RenderedMail } from './mail-templates';
import { OutgoingMail } from './mail.service';

const EMAIL_FIELDS = new Set(['email', 'cc', 'bcc', 'subject', 'body', 'html', 'from', 'message_id']);

/** What the `mail_message` columns hold (longer input is a 400, never a database error). */
const MAX_LENGTH: Record<string, number> = {
  email: 1024,
  cc: 1024,
  bcc: 1024,
  from: 255,
  subject: 998,
  // Bytes, not characters: the TEXT column of MariaDB holds 65535 bytes.
  body: 65535,
  html: 1_000_000,
};

/** The body of an `email` action (SPEC "Email receipt"): each field overrides the template's. */
export interface MailOverrides {
  email?: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string;
  body?: string;
  html?: string;
  from?: string;
}

/**
 * Reads the body of an action that mails (`email` on invoices and quotes, `welcome` on
 * subscriptions); the 400 names the field and its problem.
 */
export function mailOverrides(body: unknown, action = 'email'): MailOverrides {
  if (body === undefined || body === null || body === '') return {};
  if (!isPlainObject(body)) throw ApiError.badRequest('The request body must be a JSON object.');
  const out: MailOverrides = {};
  for (const [key, value] of Object.entries(body)) {
    if (!EMAIL_FIELDS.has(key))
      throw ApiError.badRequest(`Invalid field: "${key}" is not a field of action ${action}.`);
    if (key === 'message_id') continue; // templates are not stored yet; the default message is used
    if (typeof value !== 'string') throw ApiError.badRequest(`Invalid field "${key}": must be a string.`);
    const length = key === 'body' ? Buffer.byteLength(value) : value.length;
    if (length > MAX_LENGTH[key]) {
      const unit = key === 'body' ? 'bytes' : 'characters';
      throw ApiError.badRequest(`Invalid field "${key}": must be at most ${MAX_LENGTH[key]} ${unit}.`);
    }
    if (key === 'email' || key === 'cc' || key === 'bcc') {
      const list = value
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      if (list.some((a) => !/^[^\s@]+@[^\s@]+$/.test(a))) {
        throw ApiError.badRequest(`Invalid field "${key}": must be e-mail addresses separated by commas.`);
      }
      out[key] = list;
    } else {
      out[key as 'subject' | 'body' | 'html' | 'from'] = value;
    }
  }
  return out;
}

/** The template's message with the caller's overrides, to `to`, recorded against the object. */
export function overriddenMail(
  message: RenderedMail,
  overrides: MailOverrides,
  to: string[],
  context: { contextStr: string; contextId: number },
): OutgoingMail {
  return {
    to,
    cc: overrides.cc,
    bcc: overrides.bcc,
    from: overrides.from,
    subject: overrides.subject ?? message.subject,
    text: overrides.body ?? message.text,
    // A caller's own text replaces the default HTML too, so the two parts agree.
    html: overrides.html ?? (overrides.body === undefined ? message.html : undefined),
    ...context,
  };
}
