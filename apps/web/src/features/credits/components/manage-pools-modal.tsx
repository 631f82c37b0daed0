import { CREDIT_POOLS, type CreditPool } from '@allot/domain/credits';
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount } from '../../../lib/format';
import { useTransferPools } from '../api/transfer-pools';
import { checkAvailable, credits } from '../forms/amount';
import { mostText, type OrganizationParty, poolName } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { PoolField } from './pool-field';

interface ManagePoolsModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
}

const other = (pool: CreditPool): CreditPool => (pool === 'shared' ? 'protected' : 'shared');

/** "Manage credits" (spec §2): moves credits between the organization's protected and shared pools. */
export function ManagePoolsModal(props: ManagePoolsModalProps) {
  return (
    <CreditModal opened={props.opened} onClose={props.onClose} title="Manage credits">
      <ManagePoolsForm {...props} />
    </CreditModal>
  );
}

function ManagePoolsForm({ organization, onClose }: ManagePoolsModalProps) {
  const balances = organization.credits;
  const schema = useMemo(
    () =>
      z
        .object({ fromPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) => checkAvailable(ctx, v.amount, balances[v.fromPool])),
    [balances],
  );
  const form = useCreditForm(useTransferPools(), schema, {
    // The protected pool is the reserve: moving from it into the shared pool is the usual direction.
    fromPool: balances.protected > 0 || balances.shared === 0 ? 'protected' : 'shared',
    amount: '',
  });
  const { send, control, register, recheck, amount, formState } = form;
  const fromPool = useWatch({ control, name: 'fromPool' });
  const toPool = other(fromPool);

  async function submit(values: z.output<typeof schema>) {
    const answer = await send({
      organizationId: organization.id,
      fromPool: values.fromPool,
      toPool: other(values.fromPool),
      amount: values.amount,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits moved',
      message: `${credits(values.amount)} moved from the ${poolName(values.fromPool)} to the ${poolName(other(values.fromPool))} of ${organization.name}.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm
      label="Manage credits"
      form={form}
      onSubmit={submit}
      submitLabel="Move credits"
      onCancel={onClose}
    >
      <Text size="sm">
        Move credits between the two pools of {organization.name}. The protected pool is kept for allocation
        by admins; teachers draw from the shared pool when their own credits run out.
      </Text>
      <PoolField
        control={control}
        name="fromPool"
        label="Move from"
        description="The credits go to the other pool."
        onPick={recheck}
        balances={balances}
      />
      <AmountInput
        label="Credits to move"
        description={mostText(balances[fromPool], fromPool)}
        error={formState.errors.amount?.message}
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
    </CreditMoveForm>
  );
}
