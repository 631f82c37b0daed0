import { formatMoney } from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';

/** The decimals of a currency (2 for USD, 0 for JPY): what one major unit is in minor units. */
export function fractionDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    // Not a currency code (yet): the common case.
    return 2;
  }
}

const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;
const DECIMAL = /^\d+(?:\.(\d*))?$/;

/** "1,500" → "1500": thousands grouped as the app shows them; anything else as typed. */
function ungroup(text: string): string {
  const trimmed = text.trim();
  return GROUPED.test(trimmed) ? trimmed.replaceAll(',', '') : trimmed;
}

/** A parsed field: its value, or the message to show on it. */
export type Parsed = { ok: true; value: number } | { ok: false; message: string };

/** A whole number typed as text (seats, credits), within `min`..`max`, with the spec's messages. */
export function parseWhole(text: string, min: number, max: number): Parsed {
  const plain = ungroup(text);
  if (plain === '') return { ok: false, message: MSG.required };
  if (!/^[+-]?\d+(?:\.\d*)?$/.test(plain)) return { ok: false, message: MSG.onlyNumbers };
  const value = Number(plain);
  if (!Number.isInteger(value)) return { ok: false, message: MSG.invalidNumber };
  if (value < min) return { ok: false, message: MSG.min(min) };
  if (value > max) return { ok: false, message: MSG.max(max) };
  return { ok: true, value };
}

/**
 * A price typed in major units ("4", "4.50", "1,080.00") as minor units of `currency` (450, 108000),
 * never above `maxMinor`. More decimals than the currency has is refused rather than rounded.
 */
export function parseMoney(text: string, currency: string, maxMinor: number): Parsed {
  const plain = ungroup(text);
  if (plain === '') return { ok: false, message: MSG.required };
  const match = DECIMAL.exec(plain);
  if (!match) return { ok: false, message: MSG.onlyNumbers };
  const digits = fractionDigits(currency);
  const decimals = match[1] ?? '';
  if (decimals.length > digits) {
    return {
      ok: false,
      message: digits === 0 ? `${currency} has no cents: enter whole units.` : `At most ${digits} decimals.`,
    };
  }
  const [whole = '0'] = plain.split('.');
  const value = Number(whole) * 10 ** digits + Number(decimals.padEnd(digits, '0') || '0');
  if (!Number.isSafeInteger(value) || value > maxMinor) {
    return { ok: false, message: `At most ${formatMoney(maxMinor, currency)}.` };
  }
  return { ok: true, value };
}

/** Minor units as the major-unit text a price field shows: 450 → "4.50" (USD), 450 → "450" (JPY). */
export function toMajor(minor: number, currency: string): string {
  const digits = fractionDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}
