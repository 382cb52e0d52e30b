import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';

/** The body of SPEC "Events": `data` goes out exactly as the module recorded it. */
export function deliveryEnvelope(
  delivery: WebhookDelivery,
  data: Record<string, unknown>,
  securityToken: string,
): Record<string, unknown> {
  return {
    context_str: delivery.context_str,
    context_id: wireContextId(delivery.context_id),
    event: delivery.event,
    data,
    security_token: securityToken,
  };
}

/** Numeric ids go out as integers, others as strings (SPEC: "integer or string"). */
export function wireContextId(stored: string): number | string {
  return /^\d{1,15}$/.test(stored) ? Number(stored) : stored;
}
