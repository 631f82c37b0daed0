import type { BulkImportPreview } from '@allot/domain/users';
import { formatCount, formatCountOf } from '../../../lib/format';

const seats = (count: number) => formatCountOf(count, 'seat', 'seats');

/** "Takes 12 of 30 free seats" / "Needs 12 seats, only 3 free" / "No licence: seats are not limited". */
export function importSeatsText({ free, needed }: BulkImportPreview['seats']): string {
  if (free === null) return 'No licence: seats are not limited';
  if (needed > free) return `Needs ${seats(needed)}, only ${formatCount(free)} free`;
  return `Takes ${formatCount(needed)} of ${formatCount(free)} free ${free === 1 ? 'seat' : 'seats'}`;
}
