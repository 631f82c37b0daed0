import { toCsv } from '@allot/domain/csv';
import { IMPORT_CSV_COLUMNS, type ImportRow, type SkippedRow } from '@allot/domain/users';

/**
 * The skipped rows of an import as a CSV: the row number a spreadsheet shows, the row's own columns as the
 * file had them (when known) and the reason. The import reads its columns by name and ignores the others, so
 * this file, once fixed, can be imported again as it is.
 * `source` is the file's rows: `source[i]` is row i + 2 (the header is row 1).
 */
export function skippedRowsCsv(rows: readonly SkippedRow[], source?: readonly ImportRow[]): string {
  return toCsv(
    ['row', ...IMPORT_CSV_COLUMNS, 'reason'],
    rows.map((r) => {
      const original = source?.[r.row - 2];
      return [r.row, original?.email ?? r.email, original?.name ?? '', original?.role ?? '', r.message];
    }),
  );
}
