import { TestApp } from './test-app';

/**
 * Moves the server's test clock as an integrator would, through `POST /_clock` (the app
 * must be created with TEST_CLOCK=true): everything that comes due on the way runs, in
 * order, before it answers. Returns the `/_clock` response.
 */
export async function moveClock(t: TestApp, to: Date | string): Promise<Record<string, unknown>> {
  const datetime = typeof to === 'string' ? to : to.toISOString();
  const res = await t.post('/api/v3/_clock', { datetime }).expect(200);
  return res.body.response as Record<string, unknown>;
}
