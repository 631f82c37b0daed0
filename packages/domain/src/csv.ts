/**
 * The one writer of every CSV the product makes (exports, the error reports of imports). CONTRACT §10: a
 * cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so that no
 * spreadsheet runs it as a formula (OWASP "CSV injection"). Every cell is quoted, quotes doubled; lines end
 * with CRLF (RFC 4180), which Excel and every other reader take.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | boolean | null | undefined;

/** A cell's text as a spreadsheet will show it, never as a formula it would run. */
export function safeCell(value: CsvCell): string {
  const text = value === null || value === undefined ? '' : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map((cell) => `"${safeCell(cell).replaceAll('"', '""')}"`).join(',');
}

/** A whole document: the header, then the rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((cells) => `${csvLine(cells)}\r\n`).join('');
}
