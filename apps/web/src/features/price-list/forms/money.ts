import { formatMoney } from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';
import { type Parsed, ungroup } from '../../../lib/numbers';

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

const DECIMAL = /^\d+(?:\.(\d*))?$/;

/**
 * A price typed in major units ("4", "4.50", "1,080.00", "1 080.00": thousands as `lib/numbers.ts` reads them) as minor units of `currency` (450, 108000),
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
