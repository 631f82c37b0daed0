import { checkImportRows, importTemplateCsv } from '@allot/domain/users';
import { describe, expect, it } from 'vitest';
import { parseUserCsv } from './parse-user-csv';

const rows = (text: string) => {
  const result = parseUserCsv(text);
  if (!result.ok) throw new Error(result.error);
  return result.rows;
};

describe('parseUserCsv', () => {
  it('reads what Excel saves: BOM, semicolons, CRLF, quoted fields with separators and quotes', () => {
    const text =
      '\uFEFFEmail;User_Name;User_Role\r\n' +
      'ann@x.test;"Ann ""A"" Lee; Jr";user\r\n' +
      '"bob@x.test";"Bob\r\nSmith";organization_admin\r\n\r\n';
    expect(rows(text)).toEqual([
      { email: 'ann@x.test', name: 'Ann "A" Lee; Jr', role: 'user' },
      { email: 'bob@x.test', name: 'Bob\r\nSmith', role: 'organization_admin' },
    ]);
  });

  it('reads commas and tabs, headers in any order and case, other columns ignored', () => {
    expect(rows('user_role,notes,email,user_name\nuser,"a, b",c@x.test,Cee\n')).toEqual([
      { email: 'c@x.test', name: 'Cee', role: 'user' },
    ]);
    expect(rows(' email \t user_name\tuser_role\nd@x.test\tDee\tuser')).toEqual([
      { email: 'd@x.test', name: 'Dee', role: 'user' },
    ]);
  });

  it('keeps bad rows for the server to explain, trimmed', () => {
    expect(rows('email,user_name,user_role\n not-an-email , ,owner\n')).toEqual([
      { email: 'not-an-email', name: '', role: 'owner' },
    ]);
  });

  it('says which columns are missing: the email, and a name (or first and last names)', () => {
    expect(parseUserCsv('email\na@x.test\n')).toEqual({
      ok: false,
      error: 'The file has no user_name column.',
    });
    expect(parseUserCsv('user_name,user_role\nA,Teacher\n')).toEqual({
      ok: false,
      error: 'The file has no email column.',
    });
    expect(parseUserCsv('role\nTeacher\n')).toEqual({
      ok: false,
      error: 'The file has no email and user_name columns.',
    });
  });

  it('without a role column adds everyone as a Teacher, and says so', () => {
    expect(parseUserCsv('email;user_name\r\na@x.test;A\r\n')).toEqual({
      ok: true,
      rows: [{ email: 'a@x.test', name: 'A', role: 'Teacher' }],
      notes: ['The file has no role column: everyone in it is added as a Teacher.'],
    });
  });

  it('takes the columns by their other names: name, role, and an SIS export’s First Name and Last Name', () => {
    expect(parseUserCsv('Email,Name,Role\na@x.test,Ann Lee,Admin\n')).toEqual({
      ok: true,
      rows: [{ email: 'a@x.test', name: 'Ann Lee', role: 'Admin' }],
      notes: [],
    });
    expect(
      parseUserCsv('Student ID,First Name,Last Name,E-mail Address\n7,Ann,Lee,a@x.test\n8,Bo,,b@x.test\n'),
    ).toEqual({
      ok: true,
      rows: [
        { email: 'a@x.test', name: 'Ann Lee', role: 'Teacher' },
        { email: 'b@x.test', name: 'Bo', role: 'Teacher' },
      ],
      notes: ['The file has no role column: everyone in it is added as a Teacher.'],
    });
  });

  it('refuses an empty file, a file with only its header, and an unclosed quote', () => {
    expect(parseUserCsv('\uFEFF \r\n')).toEqual({ ok: false, error: 'The file is empty.' });
    expect(parseUserCsv('email,user_name,user_role\r\n')).toEqual({
      ok: false,
      error: 'The file has no users.',
    });
    expect(parseUserCsv('email,user_name,user_role\na@x.test,"Ann,user\n').ok).toBe(false);
  });

  it('reads the template of the import dialog: its example row is row 2 and imports as a Teacher', () => {
    const parsed = rows(importTemplateCsv());
    expect(parsed).toEqual([{ email: 'jane.doe@example.org', name: 'Jane Doe', role: 'Teacher' }]);
    expect(checkImportRows(parsed)).toEqual({
      valid: [{ row: 2, email: 'jane.doe@example.org', name: 'Jane Doe', role: 'user' }],
      skipped: [],
    });
  });
});
