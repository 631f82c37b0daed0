import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { allocateSystemCreditsRequestSchema } from './credits';
import { consumeRequestSchema, createIntegrationKeyRequestSchema } from './integration';
import { APP_MSG } from './messages';
import { createOrganizationRequestSchema, updateOrganizationRequestSchema } from './organizations';
import { freeText, isFreeText, isSingleLineText, singleLineText } from './text';
import { checkImportRows, createUserRequestSchema, updateUserRequestSchema } from './users';

/** Every bidirectional control (Unicode's Bidi_Control), the C0 and C1 controls, DEL, the separators. */
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const MARKS = ['\u200e', '\u200f', '\u061c'];
const C0 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i));
const C1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i));
const SEPARATORS = ['\u2028', '\u2029'];

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('one line of text (names)', () => {
  it('refuses bidi controls, control characters and line separators anywhere in the text', () => {
    for (const bad of [...BIDI, ...MARKS, ...C0, '\u007f', ...C1, ...SEPARATORS]) {
      const code = bad.codePointAt(0)?.toString(16);
      expect(isSingleLineText(`invoice${bad}fdp.exe`), `U+${code}`).toBe(false);
      // NUL is the text schema's own refusal, with its own message.
      if (bad === '\0') continue;
      expect(issuesOf(singleLineText(), `invoice${bad}fdp.exe`), `U+${code}`).toEqual([
        `: ${APP_MSG.notOneLine}`,
      ]);
    }
  });

  it('takes names in any script, with accents, emoji and the joiners they need', () => {
    for (const good of [
      'Ava García',
      "O'Brien-Smith",
      'مدرسة النور',
      'בית ספר',
      'Zoë 🧑🏽‍🏫',
      'مي\u200cخواهم',
      'Jane\u00a0Doe',
      'Lycée № 5',
    ]) {
      expect(isSingleLineText(good), good).toBe(true);
      expect(singleLineText().parse(good)).toBe(good);
    }
  });

  it('trims first: white space around the name, a pasted line break at its end, is dropped', () => {
    expect(singleLineText().parse('  Alpha School\n')).toBe('Alpha School');
    expect(singleLineText().parse('\tAlpha School\r\n')).toBe('Alpha School');
    expect(issuesOf(singleLineText(), 'Alpha\nSchool')).toEqual([`: ${APP_MSG.notOneLine}`]);
  });
});

describe('free text (descriptions)', () => {
  it('takes tabs and line breaks, refuses every other control character and the bidi controls', () => {
    expect(freeText().parse('Top-up for\nthe spring term\tQ2\r\nthanks')).toBe(
      'Top-up for\nthe spring term\tQ2\r\nthanks',
    );
    for (const bad of [...BIDI, ...MARKS, '\u0007', '\u001b', '\u007f', '\u0085', '\u009b', ...SEPARATORS]) {
      expect(isFreeText(`a${bad}b`), `U+${bad.codePointAt(0)?.toString(16)}`).toBe(false);
      expect(issuesOf(freeText(), `a${bad}b`)).toEqual([`: ${APP_MSG.controlCharacter}`]);
    }
  });
});

describe('the schemas that take names use the one-line rule, descriptions the free-text rule', () => {
  const spoof = 'invoice\u202efdp.exe';
  const organization = { name: 'A', phoneNumber: '+1 555 000 1111', type: 'school' };
  const id = '00000000-0000-4000-8000-000000000000';

  it('names a field for every name of every request', () => {
    expect(issuesOf(createOrganizationRequestSchema, { ...organization, name: spoof })).toEqual([
      `name: ${APP_MSG.notOneLine}`,
    ]);
    expect(issuesOf(createOrganizationRequestSchema, { ...organization, name: 'North\nSchool' })).toEqual([
      `name: ${APP_MSG.notOneLine}`,
    ]);
    expect(issuesOf(createOrganizationRequestSchema, { ...organization, adminName: spoof })).toEqual([
      `adminName: ${APP_MSG.notOneLine}`,
    ]);
    expect(issuesOf(updateOrganizationRequestSchema, { ...organization, name: 'a\u0085b' })).toEqual([
      `name: ${APP_MSG.notOneLine}`,
    ]);
    const user = { email: 'a@b.test', name: spoof, organizationId: id, role: 'user' };
    expect(issuesOf(createUserRequestSchema, user)).toEqual([`name: ${APP_MSG.notOneLine}`]);
    expect(issuesOf(updateUserRequestSchema, { email: 'a@b.test', name: 'Ann\u2066' })).toEqual([
      `name: ${APP_MSG.notOneLine}`,
    ]);
    expect(issuesOf(createIntegrationKeyRequestSchema, { name: spoof })).toEqual([
      `name: ${APP_MSG.notOneLine}`,
    ]);
    const consume = { email: 'a@b.test', credits: 1, reference: 'lesson-1' };
    expect(issuesOf(consumeRequestSchema, { ...consume, reference: 'lesson\n1' })).toEqual([
      `reference: ${APP_MSG.notOneLine}`,
    ]);
  });

  it('lets descriptions hold lines, never bidi controls', () => {
    const consume = { email: 'a@b.test', credits: 1, reference: 'lesson-1' };
    expect(issuesOf(consumeRequestSchema, { ...consume, description: 'two\nlines' })).toEqual([]);
    expect(issuesOf(consumeRequestSchema, { ...consume, description: spoof })).toEqual([
      `description: ${APP_MSG.controlCharacter}`,
    ]);
    const allocate = { organizationId: id, amount: 5, toPool: 'shared' };
    expect(
      issuesOf(allocateSystemCreditsRequestSchema, { ...allocate, description: 'PO 12\nspring' }),
    ).toEqual([]);
    expect(issuesOf(allocateSystemCreditsRequestSchema, { ...allocate, description: `PO${spoof}` })).toEqual([
      `description: ${APP_MSG.controlCharacter}`,
    ]);
  });

  it('skips an import row whose name is not one line, as a reason of its own', () => {
    const { valid, skipped } = checkImportRows([
      { email: 'a@import.test', name: spoof, role: 'user' },
      { email: 'b@import.test', name: 'Bea\nBee', role: 'user' },
      { email: 'c@import.test', name: ' Cid ', role: 'user' },
    ]);
    expect(skipped.map((s) => [s.row, s.reason])).toEqual([
      [2, 'invalid_name'],
      [3, 'invalid_name'],
    ]);
    expect(valid.map((v) => v.name)).toEqual(['Cid']);
  });
});
