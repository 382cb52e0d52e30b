/** A JSON body as the tests read it: fields of any shape, looked at one by one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
