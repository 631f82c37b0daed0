import { zodResolver } from '@hookform/resolvers/zod';
import { type DefaultValues, type FieldValues, type Path, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { type MoveMutation, useCreditMove } from './use-credit-move';

/**
 * The form of a credit dialog: validated by its schema, with the typed amount parsed as the person types
 * (for the summary), `recheck` for a choice that changes what the amount may be, and `send` for the move
 * (with its `Idempotency-Key`): a refusal about the amount shows on the field, any other in `failure`.
 */
export function useCreditForm<T, Input extends FieldValues & { amount: string }, Output extends FieldValues>(
  mutation: MoveMutation<T>,
  schema: z.ZodType<Output, Input>,
  defaultValues: NoInfer<DefaultValues<Input>>,
) {
  const move = useCreditMove(mutation);
  // Checked as it is typed (issue 33): an amount above what is available says so before anything is sent.
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onChange',
  });
  const {
    control,
    trigger,
    setError,
    formState: { isSubmitted },
  } = form;
  // A choice that changes what the amount may be re-checks it, once the form was sent.
  const recheck = () => {
    if (isSubmitted) void trigger();
  };
  const amount = amountField.safeParse(useWatch({ control, name: 'amount' as Path<Input> }));
  const send = (input: T) => move.send(input, (message) => setError('amount' as Path<Input>, { message }));
  return { ...form, recheck, amount, send, failure: move.failure };
}
