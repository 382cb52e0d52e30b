/**
 * A package loaded by its first use instead of at start: for the ones the API's requests
 * never need (Stripe without PAYMENT_GATEWAY=stripe, mail, templates, PDFs), each several
 * MB of a server's memory (bench/RESULTS.md, "RSS of the HTTP server").
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return () => (loaded ??= require(name) as T);
}
