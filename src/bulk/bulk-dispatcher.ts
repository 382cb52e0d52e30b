import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { Agent, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Envelope, errorEnvelope } from 'src/core/envelope/envelope';
import { InternalRequestMarker } from 'src/core/throttle/internal-request-marker';
import { BulkEntry } from './bulk-request';
import { JsonPathReferenceError, resolveJsonPathReferences } from './jsonpath-references';

/** Longest a single entry may take before it is answered with an error. */
const ENTRY_TIMEOUT_MS = 60_000;

interface LoopbackResponse {
  statusCode: number;
  body: string;
}

/**
 * Runs each entry of a bulk request through the application's own HTTP pipeline
 * (routing, auth, validation, envelope, revisions, events), in order, so nothing here
 * can drift from the controllers. A failed entry does not stop the others.
 *
 * Entries go over loopback HTTP to this very server. In-memory injection
 * (light-my-request) cannot be used with Express: it rewrites Express's shared request
 * and response prototypes, which breaks every real request served after it.
 */
@Injectable()
export class BulkDispatcher implements OnApplicationShutdown {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  private readonly logger = new Logger('Bulk');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly marker: InternalRequestMarker,
  ) {}

  onApplicationShutdown(): void {
    this.agent.destroy();
  }

  async run(entries: BulkEntry[], outer: Request): Promise<Envelope[]> {
    const results: Envelope[] = [];
    const byId = new Map<string, Envelope>();
    for (const entry of entries) {
      const result = await this.runOne(entry, byId, outer);
      results.push(result);
      if (entry.id !== null) byId.set(entry.id, result);
    }
    return results;
  }

  /** Whatever goes wrong with one entry is that entry's own error, never the whole request's. */
  private async runOne(entry: BulkEntry, earlier: ReadonlyMap<string, Envelope>, outer: Request): Promise<Envelope> {
    try {
      return await this.dispatch(entry, earlier, outer);
    } catch (error) {
      if (error instanceof JsonPathReferenceError) return errorEnvelope(400, error.message);
      this.logger.warn(`A _bulk entry could not be run: ${error instanceof Error ? error.message : String(error)}`);
      return errorEnvelope(503, 'This request could not be run (the server did not answer it in time); retry it.');
    }
  }

  private async dispatch(entry: BulkEntry, earlier: ReadonlyMap<string, Envelope>, outer: Request): Promise<Envelope> {
    const payload = entry.payload === null ? null : resolveJsonPathReferences(entry.payload, earlier);
    const body = payload !== null && entry.method !== 'GET' ? JSON.stringify(payload) : undefined;
    const response = await this.send(entry, body, {
      ...(outer.headers.authorization ? { authorization: outer.headers.authorization } : {}),
      'content-type': 'application/json',
      // Believed with the marker's secret alone, so revisions record the real client.
      [this.marker.addressHeader]: outer.ip ?? '',
      [this.marker.header]: this.marker.secret,
    });
    return toEnvelope(response.statusCode, response.body);
  }

  private send(entry: BulkEntry, body: string | undefined, headers: Record<string, string>): Promise<LoopbackResponse> {
    const { host, port } = this.loopbackAddress();
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host,
          port,
          method: entry.method,
          path: entry.uri,
          agent: this.agent,
          timeout: ENTRY_TIMEOUT_MS,
          headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ statusCode: res.statusCode ?? 500, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('bulk entry timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Where this server listens (a bulk request is only ever served while it does). */
  private loopbackAddress(): { host: string; port: number } {
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    const address = server.address() as AddressInfo | null;
    if (!address) throw new Error('the HTTP server is not listening');
    const wildcard = address.address === '::' || address.address === '0.0.0.0';
    return { host: wildcard ? '127.0.0.1' : address.address, port: address.port };
  }
}

function toEnvelope(statusCode: number, body: string): Envelope {
  try {
    const parsed = JSON.parse(body) as Partial<Envelope>;
    return {
      code: parsed.code ?? statusCode,
      status: parsed.status ?? (statusCode < 400 ? 'OK' : 'Error'),
      message: parsed.message ?? '',
      details: parsed.details ?? {},
      // Every answer carries `response` (null on a 404); false only if one ever came without it.
      response: parsed.response === undefined ? false : parsed.response,
    };
  } catch {
    return errorEnvelope(statusCode >= 400 ? statusCode : 500, 'The request did not return JSON.');
  }
}
