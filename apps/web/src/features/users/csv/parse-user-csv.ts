import { ROLE_LABEL } from '@allot/domain/roles';
import { type ImportRow, MAX_IMPORT_ROWS } from '@allot/domain/users';
import Papa from 'papaparse';

export type ParseUserCsvResult =
  | {
      ok: true;
      rows: ImportRow[];
      /** What the file's header left to a default, to say so on the preview: no role column. */
      notes: string[];
    }
  | { ok: false; error: string };

/**
 * The names a column may go by (issue 33): the template's, the plain words, and a school information system's
 * "First Name" and "Last Name" (joined into the name). Compared once lower case, with `_`, `-` and spaces alike.
 */
const COLUMN_NAMES = {
  email: ['email', 'e mail', 'email address', 'e mail address', 'mail'],
  name: ['user name', 'name', 'full name', 'display name'],
  firstName: ['first name', 'firstname', 'given name'],
  lastName: ['last name', 'lastname', 'surname', 'family name'],
  role: ['user role', 'role'],
} as const;

/** A header as `COLUMN_NAMES` writes it: trimmed, lower case, `_` and `-` as spaces. */
function headerKey(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

/** The role of the rows of a file without a role column. */
export const DEFAULT_IMPORT_ROLE = ROLE_LABEL.user;

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
 * delimiters, quotes and line breaks inside. Header names are trimmed and compared case-insensitively, by
 * any of their names (`COLUMN_NAMES`: `name` and `role` too, or `First Name` and `Last Name`); without a role
 * column every row is a Teacher, and the preview says so. Other columns are ignored. Rows are only read
 * here: the server checks each row and skips bad ones.
 */
export function parseUserCsv(input: string): ParseUserCsvResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === '') return { ok: false, error: 'The file is empty.' };

  const result = Papa.parse<Record<string, string | undefined>>(text, {
    header: true,
    delimiter: detectDelimiter(text),
    skipEmptyLines: 'greedy',
    transformHeader: headerKey,
  });

  if (result.errors.some((error) => error.type === 'Quotes')) {
    return { ok: false, error: 'The file could not be read: a quoted field is not closed.' };
  }

  const headers = new Set(result.meta.fields ?? []);
  const column = (names: readonly string[]) => names.find((name) => headers.has(name));
  const email = column(COLUMN_NAMES.email);
  const name = column(COLUMN_NAMES.name);
  const first = column(COLUMN_NAMES.firstName);
  const last = column(COLUMN_NAMES.lastName);
  const role = column(COLUMN_NAMES.role);
  const missing = [...(email ? [] : ['email']), ...(name || first || last ? [] : ['user_name'])];
  if (missing.length > 0) return { ok: false, error: missingColumnsMessage(missing) };

  const cell = (record: Record<string, string | undefined>, key: string | undefined) =>
    key ? (record[key] ?? '').trim() : '';
  const rows: ImportRow[] = result.data.map((record) => ({
    // Cut to what the request allows; a value that long is refused by the server's row checks anyway.
    email: cell(record, email).slice(0, 1000),
    name: (name
      ? cell(record, name)
      : [cell(record, first), cell(record, last)].filter(Boolean).join(' ')
    ).slice(0, 1000),
    role: (role ? cell(record, role) : DEFAULT_IMPORT_ROLE).slice(0, 100),
  }));
  const notes = role
    ? []
    : [`The file has no role column: everyone in it is added as a ${DEFAULT_IMPORT_ROLE}.`];
  if (rows.length === 0) return { ok: false, error: 'The file has no users.' };
  if (rows.length > MAX_IMPORT_ROWS) {
    return { ok: false, error: `At most ${MAX_IMPORT_ROWS} users in one import.` };
  }
  return { ok: true, rows, notes };
}
