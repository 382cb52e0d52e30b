import { RequestContext } from 'src/core/context/request-context';
import { randomToken } from 'src/core/refs/random-token';

/** Base columns of a new row: a fresh token and who/when wrote it. */
export function newRecordStamps(ctx: RequestContext, now: Date) {
  return {
    token: randomToken(),
    write_datetime: now,
    write_ipaddr: ctx.onBehalfAddr ?? ctx.ip,
    mod_datetime: now,
    mod_ipaddr: ctx.onBehalfAddr ?? ctx.ip,
  };
}

/** Base columns touched by an update. */
export function modStamps(ctx: RequestContext, now: Date) {
  return { mod_datetime: now, mod_ipaddr: ctx.onBehalfAddr ?? ctx.ip };
}
