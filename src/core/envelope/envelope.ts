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

export function errorEnvelope(code: number, message: string, details: Record<string, unknown> = {}): Envelope {
  return { code, status: code === 418 ? 'Teapot' : 'Error', message, details, response: false };
}
