/** The JSON envelope every response uses (SPEC "Endpoints / Conventions"). */
export interface Envelope {
  code: number;
  status: 'OK' | 'Error' | 'Teapot';
  message: string;
  details: Record<string, unknown>;
  response: unknown;
}

export function okEnvelope(code: number, response: unknown, details: Record<string, unknown> = {}): Envelope {
  return { code, status: 'OK', message: '', details, response };
}

/**
 * `response` is false on errors (SPEC "Envelope"), except on a 404, which the original
 * service answers with `response: null` (recorded traffic: "This customer does not exist.").
 */
export function errorEnvelope(code: number, message: string, details: Record<string, unknown> = {}): Envelope {
  return { code, status: code === 418 ? 'Teapot' : 'Error', message, details, response: code === 404 ? null : false };
}
