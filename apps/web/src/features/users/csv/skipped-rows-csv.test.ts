import { checkImportRows, type ImportRow } from '@allot/domain/users';
import { describe, expect, it } from 'vitest';
import { parseUserCsv } from './parse-user-csv';
import { skippedRowsCsv } from './skipped-rows-csv';

describe('skippedRowsCsv', () => {
  const source: ImportRow[] = [
    { email: 'ann@x.test', name: 'Ann', role: 'Teacher' },
    { email: '=1+1', name: 'Formula', role: 'user' },
  ];

  it('writes one skipped row with its spreadsheet row number, its columns and its reason, formula-safe', () => {
    const { skipped } = checkImportRows(source);
    expect(skipped).toHaveLength(1);
    expect(skippedRowsCsv(skipped, source)).toBe(
      '"row","email","user_name","user_role","reason"\r\n' +
        `"3","'=1+1","Formula","user","Invalid e-mail."\r\n`,
    );
  });

  it('reads back as an import file: fixed, its rows import again', () => {
    const { skipped } = checkImportRows(source);
    const fixed = skippedRowsCsv(skipped, source).replace("'=1+1", 'fixed@x.test');
    const parsed = parseUserCsv(fixed);
    expect(parsed).toEqual({
      ok: true,
      rows: [{ email: 'fixed@x.test', name: 'Formula', role: 'user' }],
      notes: [],
    });
  });

  it('without the file’s rows keeps the email the server answered', () => {
    expect(
      skippedRowsCsv([{ row: 7, email: 'b@x', reason: 'invalid_email', message: 'Invalid e-mail.' }]),
    ).toBe('"row","email","user_name","user_role","reason"\r\n"7","b@x","","","Invalid e-mail."\r\n');
  });
});
