import { CREDIT_POOLS, type CreditPool } from '@allot/domain/credits';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { formatCount } from '../../../lib/format';
import { useTransferPools } from '../api/transfer-pools';
import { amountField, checkAvailable, credits } from '../forms/amount';
import { type OrganizationParty, poolName } from '../forms/parties';
import { useCreditMove } from '../hooks/use-credit-move';
import { AmountInput } from './amount-input';
import { CreditMoveAlert } from './credit-move-alert';
import { MoveSummary } from './move-summary';
import { PoolChoice } from './pool-choice';

interface ManagePoolsModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
}

const other = (pool: CreditPool): CreditPool => (pool === 'shared' ? 'protected' : 'shared');

/** "Manage credits" (spec §2): moves credits between the organization's protected and shared pools. */
export function ManagePoolsModal(props: ManagePoolsModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Manage credits" size="lg" centered>
      {props.opened && <ManagePoolsForm {...props} />}
    </Modal>
  );
}

function ManagePoolsForm({ organization, onClose }: ManagePoolsModalProps) {
  const balances = organization.credits;
  const move = useCreditMove(useTransferPools());
  const schema = useMemo(
    () =>
      z
        .object({ fromPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) => checkAvailable(ctx, v.amount, balances[v.fromPool])),
    [balances],
  );
  const {
    control,
    register,
    handleSubmit,
    setError,
    trigger,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    // The protected pool is the reserve: moving from it into the shared pool is the usual direction.
    defaultValues: {
      fromPool: balances.protected > 0 || balances.shared === 0 ? 'protected' : 'shared',
      amount: '',
    },
  });
  const fromPool = useWatch({ control, name: 'fromPool' });
  // A choice that changes what the amount may be re-checks it, once the form was sent.
  const recheck = () => {
    if (isSubmitted) void trigger();
  };
  const amount = amountField.safeParse(useWatch({ control, name: 'amount' }));
  const toPool = other(fromPool);

  async function submit(values: z.output<typeof schema>) {
    const answer = await move.send(
      {
        organizationId: organization.id,
        fromPool: values.fromPool,
        toPool: other(values.fromPool),
        amount: values.amount,
      },
      (message) => setError('amount', { message }),
    );
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits moved',
      message: `${credits(values.amount)} moved from the ${poolName(values.fromPool)} to the ${poolName(other(values.fromPool))} of ${organization.name}.`,
    });
    onClose();
  }

  return (
    <form noValidate aria-label="Manage credits" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {move.failure && <CreditMoveAlert message={move.failure} />}
        <Text size="sm">
          Move credits between the two pools of {organization.name}. The protected pool is kept for allocation
          by admins; teachers draw from the shared pool when their own credits run out.
        </Text>
        <Controller
          control={control}
          name="fromPool"
          render={({ field }) => (
            <PoolChoice
              label="Move from"
              description="The credits go to the other pool."
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                recheck();
              }}
              balances={balances}
            />
          )}
        />
        <AmountInput
          label="Credits to move"
          description={`At most ${formatCount(balances[fromPool])}, all of the ${poolName(fromPool)}.`}
          error={errors.amount?.message}
          {...register('amount')}
        />
        <MoveSummary
          after={
            amount.success && amount.data <= balances[fromPool]
              ? `Afterwards: ${formatCount(balances[fromPool] - amount.data)} in the ${poolName(fromPool)}, ${formatCount(balances[toPool] + amount.data)} in the ${poolName(toPool)}.`
              : undefined
          }
        >
          {amount.success
            ? `${credits(amount.data)} from the ${poolName(fromPool)} to the ${poolName(toPool)}.`
            : null}
        </MoveSummary>
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Move credits" />
      </Stack>
    </form>
  );
}
