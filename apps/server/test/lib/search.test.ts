import { describe, expect, it } from 'vitest';
import { findsNothing, searchTerms } from '../../src/lib/search';

describe('searched lists', () => {
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
