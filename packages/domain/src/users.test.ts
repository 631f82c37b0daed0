import { describe, expect, it } from 'vitest';
import { ROLE_LABEL } from './roles';
import { checkImportRows, IMPORT_CSV_COLUMNS, importRoleOf, importTemplateCsv } from './users';

describe('importRoleOf', () => {
  it('takes the role names and the labels the panel shows, trimmed and in any case', () => {
    for (const cell of ['user', ' USER ', 'Teacher', 'teacher', '\tTEACHER '])
      expect(importRoleOf(cell)).toBe('user');
    for (const cell of ['organization_admin', 'Organization_Admin', 'Admin', ' admin ', 'ADMIN']) {
      expect(importRoleOf(cell)).toBe('organization_admin');
    }
    expect(importRoleOf(ROLE_LABEL.user)).toBe('user');
    expect(importRoleOf(ROLE_LABEL.organization_admin)).toBe('organization_admin');
  });

  it('refuses roles an import may not give and anything else', () => {
    for (const cell of [
      '',
      ' ',
      'owner',
      'Owner',
      'organization_owner',
      'System admin',
      'system_admin',
      'teachers',
      'org admin',
    ]) {
      expect(importRoleOf(cell)).toBeNull();
    }
  });
});

describe('checkImportRows', () => {
  it('numbers rows as a spreadsheet does: the header is row 1, the first data row row 2', () => {
    const { valid, skipped } = checkImportRows([
      { email: 'ann@x.test', name: 'Ann', role: 'Teacher' },
      { email: 'bad', name: 'Bad', role: 'user' },
      { email: 'cy@x.test', name: 'Cy', role: ' admin ' },
      { email: 'dee@x.test', name: 'Dee', role: 'Owner' },
    ]);
    expect(valid).toEqual([
      { row: 2, email: 'ann@x.test', name: 'Ann', role: 'user' },
      { row: 4, email: 'cy@x.test', name: 'Cy', role: 'organization_admin' },
    ]);
    expect(skipped.map((s) => [s.row, s.reason])).toEqual([
      [3, 'invalid_email'],
      [5, 'invalid_role'],
    ]);
  });
});

describe('importTemplateCsv', () => {
  it('is the header the import reads and one example row that imports', () => {
    const csv = importTemplateCsv();
    const [header, example, rest] = csv.split('\r\n');
    expect(header).toBe(IMPORT_CSV_COLUMNS.map((c) => `"${c}"`).join(','));
    expect(example).toBe('"jane.doe@example.org","Jane Doe","Teacher"');
    expect(rest).toBe('');
    const { valid, skipped } = checkImportRows([
      { email: 'jane.doe@example.org', name: 'Jane Doe', role: 'Teacher' },
    ]);
    expect(skipped).toEqual([]);
    expect(valid).toEqual([{ row: 2, email: 'jane.doe@example.org', name: 'Jane Doe', role: 'user' }]);
  });
});
