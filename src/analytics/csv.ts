/** A plain value of a report row. */
export type CsvValue = string | number | boolean | null | undefined;

/** A value as a CSV field (RFC 4180): quoted when it holds a quote, comma or line break. */
function field(value: CsvValue): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of plain values as CSV: a header row of `columns`, then one line per row, CRLF ends. */
export function toCsv(columns: readonly string[], rows: ReadonlyArray<Record<string, CsvValue>>): string {
  const lines = [columns.map(field).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
