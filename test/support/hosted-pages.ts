import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { TestApp } from './test-app';

/** Where tests keep what a person may want to look at (PDFs, screenshots). */
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts');

/** A browser: supertest's agent keeps the cookies the pages set. */
export function browserOf(t: TestApp): TestAgent {
  return request.agent(t.app.getHttpServer() as Parameters<typeof request.agent>[0]);
}

/** A hosted link's path (the links carry PUBLIC_URL, the test server is local). */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** The CSRF token of the first form on a page. */
export function csrfOf(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`No CSRF token in the page:\n${html}`);
  return token;
}

/** Every hosted link under `base` in a message, as paths on the test server. */
export function linksIn(content: string, base: string): string[] {
  const found = content.match(new RegExp(`${base.replace(/\./g, '\\.')}/[A-Za-z0-9_/?=.-]+`, 'g')) ?? [];
  return [...new Set(found)].map((url) => url.slice(base.length));
}

function binary(res: request.Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/** GETs a PDF link (200, application/pdf, a PDF's magic bytes); kept as an artifact when named. */
export async function fetchPdf(http: TestAgent, path: string, artifact?: string): Promise<Buffer> {
  const res = await http.get(path).buffer(true).parse(binary).expect(200);
  expect(res.type).toBe('application/pdf');
  const pdf = res.body as Buffer;
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  if (artifact) {
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, artifact), pdf);
  }
  return pdf;
}
