import { createHmac } from 'node:crypto';
import { newWebhookSecret, signWebhook } from './webhook-signature';

/** The reference computation of the Standard Webhooks spec, written out independently. */
function referenceSignature(secret: string, id: string, timestamp: number, payload: string): string {
  const key = Buffer.from(secret.split('_')[1], 'base64');
  const signed = Buffer.concat([
    Buffer.from(id),
    Buffer.from('.'),
    Buffer.from(String(timestamp)),
    Buffer.from('.'),
    Buffer.from(payload),
  ]);
  return 'v1,' + createHmac('sha256', key).update(signed).digest().toString('base64');
}

describe('webhook signature', () => {
  it('matches the published Standard Webhooks example', () => {
    const signature = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('matches the reference computation for a fresh secret and a unicode body', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ context_str: 'customer', data: { company: 'Café ✓' } });
    expect(signWebhook(secret, 'msg_abc', 1763800000, body)).toBe(
      referenceSignature(secret, 'msg_abc', 1763800000, body),
    );
  });

  it('changes with the id, the timestamp, the body and the secret', () => {
    const secret = newWebhookSecret();
    const base = signWebhook(secret, 'msg_1', 100, '{}');
    expect(signWebhook(secret, 'msg_2', 100, '{}')).not.toBe(base);
    expect(signWebhook(secret, 'msg_1', 101, '{}')).not.toBe(base);
    expect(signWebhook(secret, 'msg_1', 100, '{ }')).not.toBe(base);
    expect(signWebhook(newWebhookSecret(), 'msg_1', 100, '{}')).not.toBe(base);
  });

  it('makes secrets of 32 random bytes in the whsec_ format', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
