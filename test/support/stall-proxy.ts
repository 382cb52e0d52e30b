import { createConnection, createServer, Server, Socket } from 'node:net';

/** A MySQL COM_QUERY packet's command byte and text: `COMMIT`. */
const COM_QUERY_COMMIT = Buffer.from('\x03COMMIT', 'latin1');

/**
 * A TCP proxy to a local dependency (MariaDB, Redis) that a test can stall: while paused,
 * bytes in both directions are held (as on a network that stopped delivering) and new
 * connections wait; `resume` delivers what was held. A side that closes drops what was
 * held for it, so nothing reaches the server after its client gave up.
 */
export class StallProxy {
  private readonly server: Server;
  private readonly held: Array<() => void> = [];
  private readonly sockets = new Set<Socket>();
  private paused = false;
  /** Set by `pauseAtCommit`: what to do when the next COMMIT passes from a client. */
  private atCommit: { deliver: boolean } | null = null;

  private constructor(private readonly target: number) {
    this.server = createServer((client) => this.relay(client));
  }

  static async start(targetPort: number): Promise<StallProxy> {
    const proxy = new StallProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  pause(): void {
    this.paused = true;
  }

  /**
   * Pauses at the next COMMIT a client sends (a MySQL COM_QUERY "COMMIT"): before it reaches
   * the server, or, with `deliver`, just after (the server commits; its answer is held).
   * Resolves once paused.
   */
  pauseAtCommit(deliver: boolean): Promise<void> {
    this.atCommit = { deliver };
    return new Promise((resolve) => (this.onPaused = resolve));
  }

  private onPaused: (() => void) | null = null;

  resume(): void {
    this.atCommit = null;
    this.paused = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private freeze(): void {
    this.paused = true;
    this.onPaused?.();
    this.onPaused = null;
  }

  private relay(client: Socket): void {
    this.sockets.add(client);
    const upstream = createConnection(this.target, '127.0.0.1');
    this.sockets.add(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        const deliver = () => {
          if (!to.destroyed && !from.destroyed) to.write(chunk);
        };
        const commit = from === client && this.atCommit && !this.paused && chunk.includes(COM_QUERY_COMMIT);
        if (commit && this.atCommit?.deliver) deliver();
        if (commit) this.freeze();
        if (commit && this.atCommit?.deliver) return;
        if (this.paused) this.held.push(deliver);
        else deliver();
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }
}
