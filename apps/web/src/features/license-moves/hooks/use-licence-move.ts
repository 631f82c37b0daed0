import type { LicenseMoveResponse } from '@allot/domain/licenses';
import { useState } from 'react';
import { errorText } from '../../../lib/api-error';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key';
import type { LicenceMoveVariables } from '../api/license-move';

interface MoveMutation<T> {
  mutateAsync: (variables: LicenceMoveVariables<T>) => Promise<LicenseMoveResponse>;
  isPending: boolean;
}

/**
 * Sends a dialog's move with its `Idempotency-Key` (a repeat of the same seats after a lost answer moves them
 * once) and keeps the server's reason when it is refused: the text under the dialog's
 * "Unsuccessful" alert ('Not enough available TLE Teacher licenses.', 'Source Chorus missing', …).
 */
export function useLicenceMove<T>(mutation: MoveMutation<T>) {
  const [failure, setFailure] = useState<string | null>(null);
  const key = useIdempotencyKey();

  async function send(input: T): Promise<LicenseMoveResponse | null> {
    setFailure(null);
    try {
      return await mutation.mutateAsync({ input, idempotencyKey: key.keyFor(input) });
    } catch (error) {
      key.failed(error);
      setFailure(errorText(error));
      return null;
    }
  }

  /** The refusal was about what was sent: once the seats change, it goes. */
  const clearFailure = () => setFailure(null);

  return { send, failure, clearFailure, busy: mutation.isPending };
}
