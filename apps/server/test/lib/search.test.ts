import { describe, expect, it } from 'vitest';
import { preparedRows } from '../../src/db/prepared-rows';
import { rows } from '../../src/db/rows';
import { containsPattern, rowsForSearch } from '../../src/lib/search';

describe('searched lists', () => {
  // A named statement turns generic after five calls: for a common word that plan took 60 s, not 0.4 s.
  it('are planned for their own text; only lists without search text are prepared', () => {
    for (const search of ['garcia', 'ava garcia', 'a', ' x ']) expect(rowsForSearch(search)).toBe(rows);
    for (const search of ['', '   ']) expect(rowsForSearch(search)).toBe(preparedRows);
    expect(rowsForSearch('garcia', true)).toBe(preparedRows);
  });

  it('match the text literally, wildcards included', () => {
    expect(containsPattern(' 50%_off\\ ')).toBe('%50\\%\\_off\\\\%');
  });
});
