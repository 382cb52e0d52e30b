import { loadConfig } from './load-config';

const KEYS = {
  PAYMENT_GATEWAY: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_abc123',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
};

describe('loadConfig: the payment gateway (DESIGN §3 PAYMENT_GATEWAY, STRIPE_*)', () => {
  it('uses the test gateway by default and reads no Stripe key', () => {
    const config = loadConfig({ STRIPE_SECRET_KEY: 'not even a key' });
    expect(config.paymentGateway).toBe('test');
    expect(config.stripe).toBeUndefined();
  });

  it("reads Stripe's keys and an API URL without its trailing slash", () => {
    const config = loadConfig({ ...KEYS, STRIPE_API_URL: 'http://127.0.0.1:12111/' });
    expect(config.paymentGateway).toBe('stripe');
    expect(config.stripe).toEqual({
      secretKey: 'sk_test_abc123',
      publishableKey: 'pk_test_abc123',
      webhookSecret: 'whsec_abc123',
      apiUrl: 'http://127.0.0.1:12111',
    });
    expect(loadConfig(KEYS).stripe?.apiUrl).toBeUndefined();
  });

  it('stops the start when a key is missing, naming each one', () => {
    let message = '';
    try {
      loadConfig({ PAYMENT_GATEWAY: 'stripe' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('STRIPE_SECRET_KEY is required with PAYMENT_GATEWAY=stripe');
    expect(message).toContain('STRIPE_PUBLISHABLE_KEY is required with PAYMENT_GATEWAY=stripe');
    expect(message).toContain('STRIPE_WEBHOOK_SECRET is required with PAYMENT_GATEWAY=stripe');
  });

  it.each([
    ['STRIPE_SECRET_KEY', 'pk_test_abc123', 'sk_test_ or sk_live_'],
    ['STRIPE_PUBLISHABLE_KEY', 'sk_test_abc123', 'pk_test_ or pk_live_'],
    ['STRIPE_WEBHOOK_SECRET', 'abc123', 'whsec_'],
    ['STRIPE_SECRET_KEY', 'sk_test_abc 123', 'sk_test_'],
  ])('refuses %s=%s', (name, raw, expected) => {
    expect(() => loadConfig({ ...KEYS, [name]: raw })).toThrow(expected);
  });

  it('refuses an unknown gateway and a STRIPE_API_URL that is not a URL', () => {
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'paypal' })).toThrow('PAYMENT_GATEWAY must be one of test, stripe');
    expect(() => loadConfig({ ...KEYS, STRIPE_API_URL: 'localhost:12111' })).toThrow(
      'STRIPE_API_URL must be an http(s) URL',
    );
  });
});
