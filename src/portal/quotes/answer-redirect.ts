/**
 * Where a customer goes after answering a quote: the quote's `url_acceptredirect` /
 * `url_rejectredirect` when it is an absolute http(s) URL without credentials, else
 * nowhere (the confirmation page is shown). Anything else (`javascript:`, `data:`,
 * relative paths) is never followed, whoever stored it.
 */
export function answerRedirect(stored: unknown): string | null {
  if (typeof stored !== 'string' || stored.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(stored.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}
