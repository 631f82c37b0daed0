import { z } from 'zod';
import { APP_MSG, MSG } from './messages';

const isBlank = (input: unknown) => input === undefined || input === null || input === '';

/**
 * The texts of zod's own issues, for every schema of the app (server and web): a field never answers
 * zod's English. A schema's own message wins over these. Missing (or an empty choice) is 'Field is
 * required.'; a value outside a list ('castle' as a type) is 'Invalid value.'.
 */
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' || issue.code === 'invalid_value') {
      if (isBlank(issue.input)) return MSG.required;
      if (issue.code === 'invalid_type' && issue.expected === 'number') return MSG.onlyNumbers;
      return APP_MSG.invalidValue;
    }
    if (issue.code === 'too_big' && issue.origin === 'number') return MSG.max(Number(issue.maximum));
    if (issue.code === 'too_small' && issue.origin === 'number') return MSG.min(Number(issue.minimum));
    if (issue.code === 'too_big' && issue.origin === 'string') return APP_MSG.tooLong(Number(issue.maximum));
    if (issue.code === 'too_big' && issue.origin === 'array') return APP_MSG.tooMany(Number(issue.maximum));
    if (issue.code === 'too_small' && issue.origin === 'array') return MSG.required;
    return APP_MSG.invalidValue;
  },
});

/**
 * A NUL character, or half of a UTF-16 surrogate pair without its other half. PostgreSQL stores neither
 * (it fails the whole statement), no keyboard types them, and they hide text from people reading it.
 */
const ODD_CHARACTER = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isCleanText(value: string): boolean {
  return !ODD_CHARACTER.test(value);
}

/**
 * The one schema of free text in a request: every body field, query parameter and path parameter that
 * holds text starts here (CONTRACT §1: odd text is a `400` on its field). `error` is the message when the
 * value is missing; a value that is not text (a number, a list) is 'Invalid value.'.
 */
export function text(error: string = MSG.required) {
  return z
    .string({ error: (issue) => (isBlank(issue.input) ? error : APP_MSG.invalidValue) })
    .refine(isCleanText, { message: APP_MSG.oddCharacter, abort: true });
}

/**
 * What a line of text a person reads (a name) must not hold (issue 30): control characters (`\p{Cc}`: C0,
 * DEL and C1, so tabs and line breaks too), the line and paragraph separators U+2028 and U+2029, and the
 * bidirectional controls (`\p{Bidi_Control}`: the embeddings, overrides and isolates U+202A–U+202E and
 * U+2066–U+2069, and the marks U+200E, U+200F and U+061C). A bidi control reorders what a reader sees:
 * "invoice\u202Efdp.exe" shows as "invoiceexe.pdf". Names in Arabic or Hebrew need none of them (their
 * letters carry their direction); other invisible characters (zero-width joiners, which emoji and several
 * scripts need) stay allowed.
 */
const NOT_IN_A_LINE = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;
/** Free text (a description) may hold tabs and line breaks; nothing else of the above. */
const NOT_IN_FREE_TEXT = /(?![\t\n\r])[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;

/** True when `value` could be a name: one line, no control characters, no bidi controls. */
export function isSingleLineText(value: string): boolean {
  return !NOT_IN_A_LINE.test(value);
}

/** True when `value` holds no control character but tabs and line breaks, and no bidi control. */
export function isFreeText(value: string): boolean {
  return !NOT_IN_FREE_TEXT.test(value);
}

/**
 * A name, a label, a reference: one line a person reads (organization and people's names, key names).
 * Trimmed first (a trailing newline pasted with a name is dropped, not refused), then refused with
 * 'Must not contain line breaks or control characters.' on its field.
 */
export function singleLineText(error: string = MSG.required) {
  return text(error).trim().refine(isSingleLineText, { message: APP_MSG.notOneLine, abort: true });
}

/** Free text a person writes (a description): lines and tabs allowed, other controls and bidi controls not. */
export function freeText(error: string = MSG.required) {
  return text(error).trim().refine(isFreeText, { message: APP_MSG.controlCharacter, abort: true });
}

/** An id in a body or a path. Ids are uuids; another string is an id of nothing (`404`), never an SQL error. */
export const idSchema = text().min(1, MSG.required).max(100, APP_MSG.invalidId).meta({ format: 'uuid' });

/** Ids, addresses and dates in answers: plain strings, their format for the API document (and its checks). */
export const uuidOut = () => z.string().meta({ format: 'uuid' });
export const emailOut = () => z.string().meta({ format: 'email' });
export const dateTimeOut = () => z.string().meta({ format: 'date-time' });

export function isEmail(value: string): boolean {
  return z.email().safeParse(value).success;
}

export const emailSchema = text()
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.invalidEmail)
  .refine((v) => isEmail(v), MSG.invalidEmail)
  .meta({ format: 'email' });
