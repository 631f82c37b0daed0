import { CREDIT_POOLS } from '@allot/domain/credits';
import { createRequestSchema, REQUEST_KINDS, REQUEST_NOTE_MAX } from '@allot/domain/requests';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';

/**
 * The ask dialog's fields as typed (the amount as text, so that every wrong entry gets the spec's message),
 * turned into the request the server takes and checked by the domain's own schema: the licence type a seats
 * request needs, the most seats one request may ask for, the note's length.
 */
export const askFormSchema = z
  .object({
    kind: z.enum(REQUEST_KINDS),
    amount: amountField,
    pool: z.enum(CREDIT_POOLS),
    licenseType: z.string(),
    note: z.string().max(REQUEST_NOTE_MAX, `At most ${REQUEST_NOTE_MAX} characters.`),
  })
  .transform(
    ({ kind, amount, pool, licenseType, note }): Record<string, unknown> => ({
      kind,
      amount,
      ...(kind === 'credits' ? { pool } : licenseType ? { licenseType } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    }),
  )
  .pipe(createRequestSchema);

export type AskFormValues = z.input<typeof askFormSchema>;
export type AskFormFields = keyof AskFormValues;
