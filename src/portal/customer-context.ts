import type { Request } from 'express';
import { RequestContext, requestContextOf } from 'src/core/context/request-context';

/**
 * The context of what a customer does on a hosted page: its address, and mail and
 * webhooks as usual. The API's query flags (`_flag_emails`, `_flag_webhooks`,
 * `on_behalf_*`) are the integrator's: a customer adding them to a link's URL must not
 * silence the business's webhooks or sign revisions in someone else's name.
 */
export function customerContext(req: Request): RequestContext {
  return {
    ...requestContextOf(req),
    integrationId: null,
    onBehalfAddr: null,
    onBehalfDetails: null,
    sendEmails: true,
    sendWebhooks: true,
    customerPresent: true,
  };
}
