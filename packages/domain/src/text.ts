import { z } from 'zod';
import { APP_MSG, MSG } from './messages';

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
 * value is missing or not text at all.
 */
export function text(error: string = MSG.required) {
  return z.string({ error }).refine(isCleanText, { message: APP_MSG.oddCharacter, abort: true });
}

/** An id in a body or a path. Ids are uuids; another string is an id of nothing (`404`), never an SQL error. */
export const idSchema = text().min(1, MSG.required).max(100, APP_MSG.invalidId);

export function isEmail(value: string): boolean {
  return z.email().safeParse(value).success;
}

export const emailSchema = text()
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.invalidEmail)
  .refine((v) => isEmail(v), MSG.invalidEmail);
