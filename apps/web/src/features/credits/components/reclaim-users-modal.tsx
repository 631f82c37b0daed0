import { CREDIT_POOLS } from '@allot/domain/credits';
import { Radio, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useReclaimUsers } from '../api/reclaim-users';
import { checkAvailable, credits } from '../forms/amount';
import { type OrganizationParty, poolName, type UserParty, userDetail } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { PoolField } from './pool-field';
import { ReclaimAllForm } from './reclaim-all-form';
import { SelectedParties } from './selected-parties';

interface ReclaimUsersModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
  /** The selected members: each gives the amount. */
  users: UserParty[];
}

/**
 * "Reclaim credits" from the selected users into a pool of the organization (POST /api/credit/reclaim/users):
 * the same amount from each, or everything each holds (issue 33, `ReclaimAllForm`). The same amount: each must
 * hold it, checked before sending against the balances shown, and by the server, which names the first one short
 * (the balances may have changed since).
 */
export function ReclaimUsersModal(props: ReclaimUsersModalProps) {
  return (
    <CreditModal
      opened={props.opened}
      onClose={props.onClose}
      title="Reclaim credits"
      ready={props.users.length > 0}
    >
      <ReclaimUsersBody {...props} />
    </CreditModal>
  );
}

type HowMuch = 'amount' | 'all';

function ReclaimUsersBody(props: ReclaimUsersModalProps) {
  const [how, setHow] = useState<HowMuch>('amount');
  const single = props.users.length === 1;
  const choice = (
    <Radio.Group label="How much" value={how} onChange={(value) => setHow(value as HowMuch)}>
      <Stack gap={6} mt={4}>
        <Radio value="amount" label={single ? 'An amount' : 'The same amount from each'} />
        <Radio value="all" label={single ? 'Everything they hold' : 'Everything each holds'} />
      </Stack>
    </Radio.Group>
  );
  return how === 'all' ? (
    <ReclaimAllForm {...props} choice={choice} />
  ) : (
    <ReclaimUsersForm {...props} choice={choice} />
  );
}

function ReclaimUsersForm({
  organization,
  users,
  onClose,
  choice,
}: ReclaimUsersModalProps & { choice: ReactNode }) {
  const count = users.length;
  const single = count === 1 ? users[0] : undefined;
  const schema = useMemo(
    () =>
      z
        .object({ toPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) => checkAvailable(ctx, v.amount, Math.min(...users.map((u) => u.credits)))),
    [users],
  );
  const form = useCreditForm(useReclaimUsers(), schema, {
    toPool: 'shared',
    amount: '',
  });
  const { send, control, register, amount, formState } = form;
  const toPool = useWatch({ control, name: 'toPool' });
  const total = amount.success ? amount.data * count : 0;

  async function submit(values: z.output<typeof schema>) {
    const answer = await send({
      amount: values.amount,
      userIds: users.map((u) => u.id),
      organizationId: organization.id,
      toOrganizationPoolType: values.toPool,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits reclaimed',
      message: single
        ? `${credits(answer.total)} came back from ${single.name}.`
        : `${formatCount(answer.amount)} from each of ${formatCountOf(count, 'user', 'users')}: ${credits(answer.total)} back to ${organization.name}.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm label="Reclaim credits" form={form} onSubmit={submit} reclaim onCancel={onClose}>
      {choice}
      <SelectedParties
        label={single ? 'From' : `From each of ${formatCountOf(count, 'user', 'users')}`}
        parties={users.map(userDetail)}
      />
      <PoolField
        control={control}
        name="toPool"
        label={`Into the pool of ${organization.name}`}
        balances={organization.credits}
        balanceWord="now"
      />
      <AmountInput
        label={single ? 'Credits to reclaim' : 'Credits from each user'}
        error={formState.errors.amount?.message}
        {...register('amount')}
      />
      <MoveSummary
        after={
          // Nothing "afterwards" for an amount the dialog already refuses (issue 33).
          amount.success && !formState.errors.amount
            ? `Afterwards: ${formatCount(organization.credits[toPool] + total)} in the ${poolName(toPool)} of ${organization.name}.`
            : undefined
        }
      >
        {!amount.success
          ? null
          : single
            ? `${credits(amount.data)} from ${single.name} into the ${poolName(toPool)}.`
            : `${formatCount(amount.data)} from each of ${formatCountOf(count, 'user', 'users')}: ${credits(total)} in all, into the ${poolName(toPool)}.`}
      </MoveSummary>
    </CreditMoveForm>
  );
}
