import { FakeStripe, STRIPE_WEBHOOK_SECRET } from './fake-stripe';

/**
 * The tests' fake Stripe on its own, to try a server against by hand:
 *   node -r ts-node/register/transpile-only -r tsconfig-paths/register test/support/fake-stripe-server.ts [port]
 * then start the server with PAYMENT_GATEWAY=stripe STRIPE_API_URL=<the URL printed>
 * STRIPE_SECRET_KEY=sk_test_… (the fake takes any sk_test_ key) and
 * STRIPE_WEBHOOK_SECRET=<the secret printed>. Stops on Ctrl-C.
 */
async function main(): Promise<void> {
  const fake = await FakeStripe.start(Number(process.argv[2] ?? 12111));
  process.stdout.write(`Fake Stripe on ${fake.url} (webhook secret ${STRIPE_WEBHOOK_SECRET})\n`);
  fake.onRequest = (r) =>
    process.stdout.write(`${r.method} ${r.path} ${r.idempotencyKey ? `[Idempotency-Key ${r.idempotencyKey}] ` : ''}${r.raw}\n`);
  process.on('SIGINT', () => void fake.close().then(() => process.exit(0)));
  process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
}

void main();
