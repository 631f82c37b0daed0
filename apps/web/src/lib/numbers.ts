import { MSG } from '@allot/domain/messages';

/**
 * The one rule for a number a person types (seats, credits, limits, prices): spaces round it are ignored, and
 * thousands may be grouped as the app shows them ("1,500") or with spaces ("1 500"), but only in threes
 * ("1,50" is no number). Whether a fraction or a sign is allowed is the field's own rule, after this.
 */
const GROUPED = /^[+-]?\d{1,3}(?:[, ]\d{3})+(?:\.\d*)?$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The typed text trimmed, without its thousands separators when it is grouped: " 1 500 " → "1500". */
export function ungroup(text: string): string {
  const trimmed = text.trim();
  return GROUPED.test(trimmed) ? trimmed.replace(/[, ]/g, '') : trimmed;
}

/** The number a person typed, or null when the text is none (empty text included). */
export function typedNumber(text: string): number | null {
  const plain = ungroup(text);
  return NUMBER.test(plain) ? Number(plain) : null;
}

/**
 * What a typed number is, for a domain schema to judge with its own messages: the number when the text is
 * one, else the text itself ("only numbers"; empty stays empty, "required").
 */
export function typedValue(text: string): unknown {
  return typedNumber(text) ?? text.trim();
}

/** A parsed field: its value, or the message to show on it. */
export type Parsed = { ok: true; value: number } | { ok: false; message: string };

/** A whole number typed as text (seats, credits), within `min`..`max`, with the spec's messages. */
export function parseWhole(text: string, min: number, max: number): Parsed {
  if (text.trim() === '') return { ok: false, message: MSG.required };
  const value = typedNumber(text);
  if (value === null) return { ok: false, message: MSG.onlyNumbers };
  if (!Number.isInteger(value)) return { ok: false, message: MSG.invalidNumber };
  if (value < min) return { ok: false, message: MSG.min(min) };
  if (value > max) return { ok: false, message: MSG.max(max) };
  return { ok: true, value };
}
