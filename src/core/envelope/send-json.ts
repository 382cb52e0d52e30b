import type { Response } from 'express';

const CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Writes `body` as the JSON answer with `status`: the headers Express's `res.json` sets
 * (`Content-Type`, `Content-Length`), and no body for HEAD. Written by hand because
 * `res.send` copies any text over 1,000 characters into a Buffer before writing it (to
 * hash it when ETags are on; they are off, see configure-app.ts) and parses the content
 * type again on every call: a page of ten customers is 20 kB of text.
 */
export function sendJson(res: Response, status: number, body: unknown): Response {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
  return res;
}
