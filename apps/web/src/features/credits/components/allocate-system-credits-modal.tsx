import { CREDIT_POOLS, MAX_DESCRIPTION_LENGTH } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { formatCount } from '../../../lib/format';
import { useAllocateSystemCredits } from '../api/allocate-system-credits';
import { amountField, credits } from '../forms/amount';
import { type OrganizationParty, poolName } from '../forms/parties';
import { useCreditMove } from '../hooks/use-credit-move';
import { AmountInput } from './amount-input';
import { CreditMoveAlert } from './credit-move-alert';
import { MoveSummary } from './move-summary';
import { PoolChoice } from './pool-choice';

interface AllocateSystemCreditsModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
}

const schema = z.object({
  toPool: z.enum(CREDIT_POOLS),
  amount: amountField,
  description: z
    .string()
    .trim()
    .min(1, MSG.required)
    .max(MAX_DESCRIPTION_LENGTH, `At most ${MAX_DESCRIPTION_LENGTH} characters.`),
});

/** "Allocate credits" for a system admin: new credits into one pool, with the reason for the credit log. */
export function AllocateSystemCreditsModal(props: AllocateSystemCreditsModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Allocate new credits" size="lg" centered>
      {props.opened && <AllocateSystemCreditsForm {...props} />}
    </Modal>
  );
}

function AllocateSystemCreditsForm({ organization, onClose }: AllocateSystemCreditsModalProps) {
  const balances = organization.credits;
  const move = useCreditMove(useAllocateSystemCredits());
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { toPool: 'protected', amount: '', description: '' },
  });
  const toPool = useWatch({ control, name: 'toPool' });
  const amount = amountField.safeParse(useWatch({ control, name: 'amount' }));

  async function submit(values: z.output<typeof schema>) {
    const answer = await move.send({ organizationId: organization.id, ...values }, (message) =>
      setError('amount', { message }),
    );
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits allocated',
      message: `${credits(values.amount)} added to the ${poolName(values.toPool)} of ${organization.name}.`,
    });
    onClose();
  }

  return (
    <form noValidate aria-label="Allocate new credits" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {move.failure && <CreditMoveAlert message={move.failure} />}
        <Text size="sm">
          As a system admin you create new credits for {organization.name}. They are not taken from any other
          organization; the credit log keeps the reason you give.
        </Text>
        <Controller
          control={control}
          name="toPool"
          render={({ field }) => (
            <PoolChoice
              label="Into pool"
              value={field.value}
              onChange={field.onChange}
              balances={balances}
              balanceWord="now"
            />
          )}
        />
        <AmountInput label="Credits to allocate" error={errors.amount?.message} {...register('amount')} />
        <Textarea
          label="Description"
          description="Why the credits are created, e.g. the contract or the order. Shown in the credit log."
          required
          autosize
          minRows={2}
          maxRows={5}
          maxLength={MAX_DESCRIPTION_LENGTH}
          error={errors.description?.message}
          {...register('description')}
        />
        <MoveSummary
          after={
            amount.success
              ? `Afterwards: ${formatCount(balances[toPool] + amount.data)} in the ${poolName(toPool)}.`
              : undefined
          }
        >
          {amount.success
            ? `${credits(amount.data)} new into the ${poolName(toPool)} of ${organization.name}.`
            : null}
        </MoveSummary>
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Allocate credits" />
      </Stack>
    </form>
  );
}
