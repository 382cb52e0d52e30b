import { readFileSync } from 'node:fs';
import { outsideUnit } from 'src/database/outside-call-guard';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { postPinned } from './pinned-post';
import { vetTarget } from './target-url-guard';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const OPTIONS = { timeoutMs: 2000, maxBodyChars: 20 };
const RELAXED = { allowPrivate: true };
/** These posts run outside any unit of work. */
const OUTSIDE = outsideUnit('a test post');

describe('postPinned', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('connects to the vetted address while Host keeps the name', async () => {
    const seen: { host?: string; body?: string; type?: string } = {};
    const { server, port } = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        Object.assign(seen, { host: req.headers.host, body, type: req.headers['content-type'] });
        res.writeHead(200).end('ok');
      });
    });
    servers.push(server);
    // The name resolves (per the injected resolver) to loopback: the socket must go there.
    const target = await vetTarget(`http://hooks.example.test:${port}/in`, RELAXED, () =>
      Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    );
    const outcome = await postPinned(OUTSIDE, target, '{"a":1}', { 'Content-Type': 'application/json' }, OPTIONS);
    expect(outcome).toEqual({ statusCode: 200, body: 'ok', error: null });
    expect(seen).toEqual({ host: `hooks.example.test:${port}`, body: '{"a":1}', type: 'application/json' });
  });

  it('over https: connects to the vetted address, sends the name as SNI and verifies the certificate', async () => {
    const tls = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tls');
    const names: string[] = [];
    let requests = 0;
    const server = createHttpsServer(
      {
        key: readFileSync(join(tls, 'test-receiver.key.pem')),
        cert: readFileSync(join(tls, 'test-receiver.cert.pem')),
        SNICallback: (name, callback) => {
          names.push(name);
          callback(null);
        },
      },
      (_req, res) => {
        requests++;
        res.writeHead(200).end('ok');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const target = await vetTarget(`https://hooks.example.test:${port}/in`, RELAXED, () =>
      Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    );
    const outcome = await postPinned(OUTSIDE, target, '{}', {}, OPTIONS);
    // The self-signed certificate is refused: verification stays on for pinned connections.
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/^connection failed: .*self[- ]signed certificate/);
    expect(names).toEqual(['hooks.example.test']);
    expect(requests).toBe(0);
  });

  it('does not follow a redirect to an internal address: the 3xx is the outcome', async () => {
    let internalHits = 0;
    const internal = await listen((_req, res) => {
      internalHits++;
      res.writeHead(200).end('secret');
    });
    servers.push(internal.server);
    const redirecting = await listen((_req, res) => {
      res.writeHead(302, { Location: `http://127.0.0.1:${internal.port}/admin` }).end('moved');
    });
    servers.push(redirecting.server);
    const target = await vetTarget(`http://127.0.0.1:${redirecting.port}/`, RELAXED);
    const outcome = await postPinned(OUTSIDE, target, '{}', {}, OPTIONS);
    expect(outcome.statusCode).toBe(302);
    expect(outcome.body).toBe('moved');
    expect(internalHits).toBe(0);
  });

  it('cuts a long answer to the configured size', async () => {
    const { server, port } = await listen((_req, res) => res.writeHead(500).end('x'.repeat(10000)));
    servers.push(server);
    const outcome = await postPinned(OUTSIDE, await vetTarget(`http://127.0.0.1:${port}/`, RELAXED), '{}', {}, OPTIONS);
    expect(outcome).toEqual({ statusCode: 500, body: 'x'.repeat(20), error: null });
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const { server, port } = await listen(() => undefined);
    servers.push(server);
    const outcome = await postPinned(
      OUTSIDE,
      await vetTarget(`http://127.0.0.1:${port}/`, RELAXED),
      '{}',
      {},
      {
        timeoutMs: 100,
        maxBodyChars: 20,
      },
    );
    expect(outcome).toEqual({ statusCode: null, body: null, error: 'no answer within 0.1 s' });
  });

  it('reports a refused connection', async () => {
    const { server, port } = await listen(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    const outcome = await postPinned(OUTSIDE, await vetTarget(`http://127.0.0.1:${port}/`, RELAXED), '{}', {}, OPTIONS);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/^connection failed: .*ECONNREFUSED/);
  });
});
