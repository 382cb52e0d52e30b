import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { ApiResult } from './api-result';
import { okEnvelope } from './envelope';
import { sendJson } from './send-json';

/**
 * The Express platform with the success envelope (DESIGN §4) applied where Nest writes a
 * controller's result: an `ApiResult` sets its code and headers, anything else is a 200
 * (`undefined` answers `true`). Errors never come here: the exception filter writes them.
 *
 * Not an interceptor on purpose: any global interceptor puts every request through an
 * rxjs pipeline, measured at a tenth of a simple read's CPU.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  /** `_proposedStatus` (Nest's default, 201 for every POST) is ignored: the result decides. */
  override reply(response: Response, body: unknown, _proposedStatus?: number): Response {
    if (body instanceof ApiResult) {
      for (const [name, value] of Object.entries(body.headers)) response.setHeader(name, value);
      return sendJson(response, body.code, okEnvelope(body.code, body.response, body.details));
    }
    return sendJson(response, 200, okEnvelope(200, body === undefined ? true : body));
  }
}
