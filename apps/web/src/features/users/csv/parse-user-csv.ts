import { IMPORT_CSV_COLUMNS, type ImportRow, MAX_IMPORT_ROWS } from '@allot/domain/users';
import Papa from 'papaparse';

export type ParseUserCsvResult = { ok: true; rows: ImportRow[] } | { ok: false; error: string };

const DELIMITERS = [',', ';', '\t'] as const;

/** "user_role" → "The file has no user_role column."; several are listed in one sentence. */
export function missingColumnsMessage(missing: readonly string[]): string {
  if (missing.length === 1) return `The file has no ${missing[0]} column.`;
  const list = `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  return `The file has no ${list} columns.`;
}

/** How often each delimiter occurs outside quotes in the header line; the most frequent one wins. */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const [delimiter, count] of counts) {
    if (count > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
}

/**
 * Reads the import file (spec §3: CSV user rows `email, user_name, user_role`): a UTF-8 BOM, comma,
 * semicolon or tab as the delimiter (taken from the header line), CRLF or LF, quoted fields with
 * delimiters, quotes and line breaks inside. Header names are trimmed and compared case-insensitively;
 * other columns are ignored. Rows are only read here: the server checks each row and skips bad ones.
 */
export function parseUserCsv(input: string): ParseUserCsvResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === '') return { ok: false, error: 'The file is empty.' };

  const result = Papa.parse<Record<string, string | undefined>>(text, {
    header: true,
    delimiter: detectDelimiter(text),
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim().toLowerCase(),
  });

  if (result.errors.some((error) => error.type === 'Quotes')) {
    return { ok: false, error: 'The file could not be read: a quoted field is not closed.' };
  }

  const headers = new Set(result.meta.fields ?? []);
  const missing = IMPORT_CSV_COLUMNS.filter((column) => !headers.has(column));
  if (missing.length > 0) return { ok: false, error: missingColumnsMessage(missing) };

  const rows: ImportRow[] = result.data.map((record) => ({
    // Cut to what the request allows; a value that long is refused by the server's row checks anyway.
    email: (record.email ?? '').trim().slice(0, 1000),
    name: (record.user_name ?? '').trim().slice(0, 1000),
    role: (record.user_role ?? '').trim().slice(0, 100),
  }));
  if (rows.length === 0) return { ok: false, error: 'The file has no users.' };
  if (rows.length > MAX_IMPORT_ROWS) {
    return { ok: false, error: `At most ${MAX_IMPORT_ROWS} users in one import.` };
  }
  return { ok: true, rows };
}
