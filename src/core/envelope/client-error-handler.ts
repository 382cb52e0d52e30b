import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from './envelope';

/** Node's parser codes for a request line or headers over `--max-http-header-size`. */
const TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW', 'HPE_URI_TOO_LONG']);

/**
 * Requests Node's HTTP parser refuses never reach Express: Node answers them itself with
 * an empty body (431 for an oversized URL or headers, 400 for a malformed request). This
 * writes the JSON envelope instead, straight to the socket, then closes it.
 */
export function answerClientErrorsInEnvelope(server: Server): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, message] = TOO_LARGE.has(error.code ?? '')
      ? [431, 'Invalid request: the URL or the request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'Invalid request: the HTTP request is malformed.'];
    const body = JSON.stringify(errorEnvelope(status, message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
