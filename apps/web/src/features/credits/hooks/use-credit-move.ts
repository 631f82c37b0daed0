import type { CreditMoveResponse } from '@allot/domain/credits';
import { useState } from 'react';
import { isApiError } from '../../../lib/api-error';
import { applyServerErrors } from '../../../lib/form-errors';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key';
import { type CreditMoveVariables, invalidateCreditQueries } from '../api/credit-move';

export interface MoveMutation<T> {
  mutateAsync: (variables: CreditMoveVariables<T>) => Promise<CreditMoveResponse>;
}

/**
 * Sends a dialog's move with its `Idempotency-Key` and keeps what went wrong: a message on the amount field
 * when the server named it, else the text for the dialog's "Unsuccessful" alert. A refusal of the balances
 * (`422`: somebody moved credits since the screen was read) fetches every balance again, so the dialog and
 * the screen behind it show what is there now.
 */
export function useCreditMove<T>(mutation: MoveMutation<T>) {
  const key = useIdempotencyKey();
  const [failure, setFailure] = useState<string | null>(null);

  async function send(
    input: T,
    setAmountError: (message: string) => void,
  ): Promise<CreditMoveResponse | null> {
    setFailure(null);
    try {
      return await mutation.mutateAsync({ input, idempotencyKey: key.keyFor(input) });
    } catch (error) {
      key.failed(error);
      if (isApiError(error) && error.status === 422) void invalidateCreditQueries();
      setFailure(applyServerErrors(error, ['amount'], (_field, message) => setAmountError(message)));
      return null;
    }
  }

  return { send, failure };
}
