/**
 * A presented object as a reader that goes by field name sees it (the hosted pages' and
 * printed documents' templates, the quote's parts): the response classes declare their
 * fields, not an index signature, so this is where such a reader takes them.
 */
export function fieldsOf(presented: object): Record<string, unknown> {
  return presented as Record<string, unknown>;
}
