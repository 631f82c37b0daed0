import { describe, expect, it } from 'vitest';
import { csvLine, safeCell, toCsv } from './csv';

describe('formula-safe CSV (CONTRACT §10)', () => {
  it('prefixes every cell a spreadsheet would run as a formula', () => {
    for (const formula of [
      "=cmd|' /C calc'!A0",
      '+1+2',
      '-2+3',
      '@SUM(A1:A2)',
      '\t=1+1',
      '\r=1+1',
      '=HYPERLINK("http://evil.test","click")',
    ]) {
      expect(safeCell(formula)).toBe(`'${formula}`);
    }
  });

  it('leaves ordinary text and numbers as they are', () => {
    for (const plain of ['teacher@school.test', 'Ava García', 'a=b', "O'Brien", '12', ' =leading space']) {
      expect(safeCell(plain)).toBe(plain);
    }
    expect(safeCell(42)).toBe('42');
    expect(safeCell(-5)).toBe("'-5");
    expect(safeCell(null)).toBe('');
  });

  it('quotes every cell, doubles quotes, and ends lines with CRLF', () => {
    expect(csvLine(['a "b"', 'c,d', 'e\nf'])).toBe('"a ""b""","c,d","e\nf"');
    expect(toCsv(['row', 'email'], [[1, '=1+1']])).toBe('"row","email"\r\n"1","\'=1+1"\r\n');
  });
});
