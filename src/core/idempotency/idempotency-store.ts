import { Injectable } from '@nestjs/common';
import { EntityManager, LessThanOrEqual } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { DueWork } from 'src/core/schedule/due-work';
import { lockForUpdate } from 'src/database/dialect';
import { UnitOfWork } from 'src/database/unit-of-work';
import { IdempotencyKey } from './idempotency-key.entity';

/** How long a key and its answer are kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** A stored answer, replayed as it was sent. */
export interface StoredAnswer {
  code: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { kind: 'claimed'; id: number }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'running' }
  | { kind: 'mismatch' };

/**
 * The idempotency keys in the database: claimed before a request runs, answered after.
 * Expired keys are pruned hourly (due work).
 */
@Injectable()
@DueWork()
export class IdempotencyStore implements DueWork {
  readonly name = 'idempotency.prune';
  readonly trigger = { kind: 'interval', everyMs: 3600_000 } as const;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async runDue(asOf: Date): Promise<void> {
    await this.prune(asOf);
  }

  /** Claims the key for this request, or says what became of its first use. */
  claim(credentialId: number, key: string, requestHash: string): Promise<Claim> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const now = this.clock.now();
      const qb = m
        .createQueryBuilder(IdempotencyKey, 'k')
        .where({ api_credential_id: credentialId, idempotency_key: key });
      lockForUpdate(qb);
      let found = await qb.getOne();
      if (found && found.expires_datetime <= now) {
        await m.delete(IdempotencyKey, found.idempotency_key_id);
        found = null;
      }
      if (!found) {
        // Two first uses at once: the unique index lets one in; the unit of work runs the
        // other afresh, which then finds it.
        const inserted = await m.insert(IdempotencyKey, {
          api_credential_id: credentialId,
          idempotency_key: key,
          request_hash: requestHash,
          status: 'running',
          response_code: null,
          response_headers: null,
          response_body: null,
          created_datetime: now,
          expires_datetime: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        });
        return { kind: 'claimed', id: (inserted.identifiers[0] as { idempotency_key_id: number }).idempotency_key_id };
      }
      if (found.request_hash !== requestHash) return { kind: 'mismatch' };
      if (found.status !== 'done') return { kind: 'running' };
      return {
        kind: 'replay',
        answer: { code: found.response_code!, headers: found.response_headers ?? {}, body: found.response_body ?? '' },
      };
    });
  }

  /**
   * In the transaction of each unit of work the keyed request runs: once one commits, the key
   * says the request wrote something (`written`), whatever becomes of its answer.
   */
  async markWritten(m: EntityManager, id: number): Promise<void> {
    await m.update(IdempotencyKey, { idempotency_key_id: id, status: 'running' }, { status: 'written' });
  }

  /**
   * After an answer that says the write did not happen or may not have (a 503): once the
   * database answers again, a key no unit marked as written is given back (nothing was
   * stored: a retry runs the request), and a key marked written keeps `ifWritten` as its
   * answer. Until then a retry is told the request is still running (409).
   * Tries every `everyMs` for up to `tries` times; true once settled.
   */
  async settle(id: number, ifWritten: StoredAnswer, tries = 60, everyMs = 1_000): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.uow.run(async (tx) => {
          const found = await lockForUpdate(
            tx.manager.createQueryBuilder(IdempotencyKey, 'k').where({ idempotency_key_id: id }),
          ).getOne();
          if (!found || found.status === 'done') return;
          if (found.status === 'running') await tx.manager.delete(IdempotencyKey, id);
          else await this.storeAnswer(tx.manager, id, ifWritten);
        });
        return true;
      } catch (error) {
        if (attempt >= tries) throw error;
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    }
  }

  /** Keeps the first answer. */
  async answer(id: number, answer: StoredAnswer): Promise<void> {
    await this.uow.run((tx) => this.storeAnswer(tx.manager, id, answer));
  }

  private async storeAnswer(m: EntityManager, id: number, answer: StoredAnswer): Promise<void> {
    await m.update(IdempotencyKey, id, {
      status: 'done',
      response_code: answer.code,
      response_headers: answer.headers,
      response_body: answer.body,
    });
  }

  /** Gives the key back (the request was refused before it ran: a retry may run it). */
  async release(id: number): Promise<void> {
    await this.uow.run((tx) => tx.manager.delete(IdempotencyKey, id));
  }

  /** Forgets the keys expired as of `asOf`; returns how many. */
  async prune(asOf: Date): Promise<number> {
    return this.uow.run(
      async (tx) =>
        (await tx.manager.delete(IdempotencyKey, { expires_datetime: LessThanOrEqual(asOf) })).affected ?? 0,
    );
  }
}
