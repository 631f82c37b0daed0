import { describe, expect, it } from 'vitest';
import { preparedRows } from '../../src/db/prepared-rows';
import { rows } from '../../src/db/rows';
import { findsNothing, rowsForSearch, searchTerms } from '../../src/lib/search';

describe('searched lists', () => {
  // A named statement turns generic after five calls: for a common word that plan took 60 s, not 0.4 s.
  it('are planned for their own text; only lists without search text are prepared', () => {
    for (const search of ['garcia', 'ava garcia', 'a', ' x ']) expect(rowsForSearch(search)).toBe(rows);
    for (const search of ['', '   ']) expect(rowsForSearch(search)).toBe(preparedRows);
    expect(rowsForSearch('garcia', true)).toBe(preparedRows);
  });

  it('split the text into terms at any whitespace', () => {
    expect(searchTerms('  ava \t garcía\nschool.test ')).toEqual(['ava', 'garcía', 'school.test']);
    expect(searchTerms('   ')).toEqual([]);
  });

  it('find nothing for a term that begins with an email separator, which starts no word', () => {
    for (const search of ['@school', 'ava .test', '-x', '+1', '_a'])
      expect(findsNothing(searchTerms(search))).toBe(true);
    for (const search of ['ava', "o'brien", 'school.test', '#1'])
      expect(findsNothing(searchTerms(search))).toBe(false);
  });
});
