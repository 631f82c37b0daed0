import { describe, expect, test } from 'vitest';
import { matchesWordStarts } from './search-hints';

describe('the start of a word (CONTRACT §1, Search)', () => {
  test('every term starts a word, whatever the case and accents', () => {
    expect(matchesWordStarts('Ava García', 'gar')).toBe(true);
    expect(matchesWordStarts('Ava García', 'GARC')).toBe(true);
    expect(matchesWordStarts('Ava Garcia', 'garcía')).toBe(true);
    expect(matchesWordStarts('Ava García', 'ava gar')).toBe(true);
    expect(matchesWordStarts('Ava García', '  gar   ava ')).toBe(true);
    expect(matchesWordStarts('Ava García', '')).toBe(true);
  });

  test('not inside a word, and every term must match', () => {
    expect(matchesWordStarts('Ava García', 'arci')).toBe(false);
    expect(matchesWordStarts('Ava García', 'ava lopez')).toBe(false);
    expect(matchesWordStarts('Riverside District', 'side')).toBe(false);
  });

  test('words split at punctuation, and a term may run across it', () => {
    expect(matchesWordStarts('St. Mary-Lake School', 'lake')).toBe(true);
    expect(matchesWordStarts('teacher12345@school.test', 'school.test')).toBe(true);
    expect(matchesWordStarts('teacher12345@school.test', 'teacher12')).toBe(true);
    expect(matchesWordStarts('teacher12345@school.test', 'chool')).toBe(false);
  });
});
