/**
 * The one writer of every CSV the product makes (exports, the error reports of imports). CONTRACT §10: a
 * cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, so that no
 * spreadsheet runs it as a formula (OWASP "CSV injection"); a number stays a number (below). Every cell is
 * quoted, quotes doubled; lines end with CRLF (RFC 4180), which Excel and every other reader take.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A negative number, written as a spreadsheet reads one: `-600`, `-12.5`. Nothing else may follow the
 * digits, so `-1+2`, `-A1` or `-2+3+cmd|…` are still formulas to guard. A spreadsheet reads such a cell as
 * the number itself (there is nothing in it to run), and a prefixed `'-600` would be text that no sum adds.
 */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

export type CsvCell = string | number | boolean | null | undefined;

/** A cell's text as a spreadsheet will show it, never as a formula it would run. */
export function safeCell(value: CsvCell): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const text = value === null || value === undefined ? '' : String(value);
  return FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;
}

export function csvLine(cells: readonly CsvCell[]): string {
  return cells.map((cell) => `"${safeCell(cell).replaceAll('"', '""')}"`).join(',');
}

/** A whole document: the header, then the rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((cells) => `${csvLine(cells)}\r\n`).join('');
}
