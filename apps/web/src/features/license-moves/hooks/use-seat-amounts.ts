import type { LicenseType } from '@allot/domain/organizations';
import { useState } from 'react';
import { itemsOf, NOTHING_TO_MOVE, parseSeats } from '../forms/seats';

/**
 * The seats typed for each licence type of a dialog. Errors show once the form was sent, then as the person
 * types (as the credit dialogs do); `amounts` holds every type typed well so far, for the live totals.
 * `onEdit` runs on every change (the dialog drops the refusal of what it sent before).
 */
export function useSeatAmounts(types: readonly LicenseType[], onEdit?: () => void) {
  const [texts, setTexts] = useState<Partial<Record<LicenseType, string>>>({});
  const [sent, setSent] = useState(false);
  const parsed = new Map(types.map((type) => [type, parseSeats(texts[type] ?? '')]));
  const amounts = new Map<LicenseType, number>();
  for (const [type, result] of parsed) if (result.ok) amounts.set(type, result.value);
  const valid = amounts.size === types.length;
  const items = itemsOf(amounts);

  return {
    text: (type: LicenseType) => texts[type] ?? '',
    setText: (type: LicenseType, text: string) => {
      setTexts((current) => ({ ...current, [type]: text }));
      onEdit?.();
    },
    /** The field's message (the spec's texts), once the form was sent. */
    error: (type: LicenseType): string | undefined => {
      const result = parsed.get(type);
      return sent && result && !result.ok ? result.message : undefined;
    },
    amounts,
    /** Every amount is 0 or empty: nothing would be sent. Shown once the form was sent. */
    nothingError: sent && valid && items.length === 0 ? NOTHING_TO_MOVE : null,
    /** On submit: the items to send (types above 0), or null while a field is wrong or all are 0. */
    submit: () => {
      setSent(true);
      return valid && items.length > 0 ? items : null;
    },
  };
}
