import { MAX_SEATS } from '@allot/domain/licenses';
import { MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL, LICENSE_TYPES, type LicenseType } from '@allot/domain/organizations';
import { z } from 'zod';
import { formatCount, formatCountOf } from '../../../lib/format';
import { typedNumber } from '../../../lib/numbers';
import { type SeatFigures, unusedSeats } from '../../../lib/seats';

/** An organization's licences in the order of the types (CONTRACT §7), one per type. */
export function byType<T extends { licenseType: LicenseType }>(licences: readonly T[]): T[] {
  return [...licences].sort(
    (a, b) => LICENSE_TYPES.indexOf(a.licenseType) - LICENSE_TYPES.indexOf(b.licenseType),
  );
}

/** The seats of one licence move item, with the domain's range (0 = this type is skipped). */
const seatsSchema = z.number().int(MSG.invalidNumber).min(0, MSG.min(0)).max(MAX_SEATS, MSG.max(MAX_SEATS));

export type ParsedSeats = { ok: true; value: number } | { ok: false; message: string };

/**
 * A typed number of seats: empty is 0 (the type is skipped); "1,500" and "1 500" as every number field
 * reads them (`lib/numbers.ts`); the spec's texts for the rest ("only numbers", "Invalid number", the range).
 */
export function parseSeats(text: string): ParsedSeats {
  if (text.trim() === '') return { ok: true, value: 0 };
  const value = typedNumber(text);
  if (value === null) return { ok: false, message: MSG.onlyNumbers };
  const parsed = seatsSchema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? MSG.invalidNumber };
}

/** Shown when every amount is 0: the spec sends only items above 0, so there would be nothing to send. */
export const NOTHING_TO_MOVE = 'Enter seats above 0 for at least one licence.';

/** "3 organizations × 5 = 15 seats": what a move of `amount` for each of `count` organizations carries. */
export function totalText(count: number, amount: number): string {
  return `${formatCountOf(count, 'organization', 'organizations')} × ${formatCount(amount)} = ${formatCountOf(amount * count, 'seat', 'seats')}`;
}

export const typeLabel = (type: LicenseType): string => LICENSE_TYPE_LABEL[type];

/** The items of the request: every type with seats above 0 (spec §5), in the types' order. */
export function itemsOf(amounts: ReadonlyMap<LicenseType, number>): { type: LicenseType; amount: number }[] {
  return LICENSE_TYPES.filter((type) => (amounts.get(type) ?? 0) > 0).map((type) => ({
    type,
    amount: amounts.get(type) as number,
  }));
}

/** "10 TLE Teacher seats and 2 Chorus seats": the items of a move, for its notification. */
export function movedText(items: readonly { type: LicenseType; amount: number }[]): string {
  const parts = items.map(
    (item) => `${formatCount(item.amount)} ${typeLabel(item.type)} ${item.amount === 1 ? 'seat' : 'seats'}`,
  );
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** What the selected organizations can give back of one type: who holds none, and who has the fewest unused. */
export interface SourceSeats {
  /** The organizations without a licence of the type (the server answers 'Source {type} missing'). */
  missing: { id: string; name: string }[];
  /** The holder with the fewest unused seats: the most that can come back from each. */
  fewest: { name: string; free: number; used: number } | null;
}

export function sourceSeats(
  type: LicenseType,
  sources: readonly { id: string; name: string }[],
  licences: ReadonlyMap<string, readonly SeatFigures[]>,
): SourceSeats {
  const missing: SourceSeats['missing'] = [];
  let fewest: SourceSeats['fewest'] = null;
  for (const source of sources) {
    const licence = licences.get(source.id)?.find((l) => l.licenseType === type);
    if (!licence) {
      missing.push(source);
      continue;
    }
    const free = unusedSeats(licence);
    if (!fewest || free < fewest.free) fewest = { name: source.name, free, used: licence.usedSeats };
  }
  return { missing, fewest };
}
