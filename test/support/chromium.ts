import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** Debian's chromium (CI installs it); CHROMIUM_PATH overrides. Missing is a failure, never a skip. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p): p is string => typeof p === 'string' && existsSync(p));
  if (!found) {
    throw new Error(
      'The portal browser test needs Chromium: install it with `apt-get install -y chromium` ' +
        '(.ci/run does) or set CHROMIUM_PATH.',
    );
  }
  return found;
}

/** A free local port, so PUBLIC_URL (the root of every url_* link) is where the browser goes. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
