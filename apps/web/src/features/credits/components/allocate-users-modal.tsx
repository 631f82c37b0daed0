import { CREDIT_POOLS, type CreditPool } from '@allot/domain/credits';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useAssignUsers } from '../api/assign-users';
import { checkAvailable, credits } from '../forms/amount';
import { mostText, type OrganizationParty, poolName, type UserParty, userDetail } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { PoolField } from './pool-field';
import { SelectedParties } from './selected-parties';

interface AllocateUsersModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
  /** The selected members: each receives the amount. */
  users: UserParty[];
  /** The pool chosen when the dialog opens; the shared pool without it. */
  initialPool?: CreditPool;
}

/** "Allocate credits" to the selected users from a pool of the organization (POST /api/credit/assign/users). */
export function AllocateUsersModal(props: AllocateUsersModalProps) {
  return (
    <CreditModal
      opened={props.opened}
      onClose={props.onClose}
      title="Allocate credits"
      ready={props.users.length > 0}
    >
      <AllocateUsersForm {...props} />
    </CreditModal>
  );
}

function AllocateUsersForm({
  organization,
  users,
  onClose,
  initialPool = 'shared',
}: AllocateUsersModalProps) {
  const count = users.length;
  const single = count === 1 ? users[0] : undefined;
  const schema = useMemo(
    () =>
      z
        .object({ fromPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) => checkAvailable(ctx, v.amount, organization.credits[v.fromPool], count)),
    [organization.credits, count],
  );
  const form = useCreditForm(
    useAssignUsers(),
    schema,
    // Teachers' credits normally come from the shared pool, the one they draw from anyway (an empty shared
    // pool is why the product access panel offers to add credits: it opens on the protected pool).
    { fromPool: initialPool, amount: '' },
  );
  const { send, control, register, recheck, amount, formState } = form;
  const fromPool = useWatch({ control, name: 'fromPool' });
  const available = organization.credits[fromPool];
  const total = amount.success ? amount.data * count : 0;

  async function submit(values: z.output<typeof schema>) {
    const answer = await send({
      amount: values.amount,
      userIds: users.map((u) => u.id),
      organizationId: organization.id,
      fromOrganizationPoolType: values.fromPool,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits allocated',
      message: single
        ? `${credits(answer.total)} went to ${single.name}.`
        : `${formatCount(answer.amount)} each went to ${formatCountOf(count, 'user', 'users')}: ${credits(answer.total)} in all.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm label="Allocate credits" form={form} onSubmit={submit} onCancel={onClose}>
      <SelectedParties
        label={single ? 'To' : `To each of ${formatCountOf(count, 'user', 'users')}`}
        parties={users.map(userDetail)}
      />
      <PoolField
        control={control}
        name="fromPool"
        label={`From the pool of ${organization.name}`}
        onPick={recheck}
        balances={organization.credits}
      />
      <AmountInput
        label={single ? 'Credits to allocate' : 'Credits for each user'}
        description={mostText(available, fromPool, count, 'user')}
        error={formState.errors.amount?.message}
        {...register('amount')}
      />
      <MoveSummary
        after={
          amount.success && total <= available
            ? `Left in the ${poolName(fromPool)} of ${organization.name}: ${formatCount(available - total)}.`
            : undefined
        }
      >
        {!amount.success
          ? null
          : single
            ? `${credits(amount.data)} to ${single.name}.`
            : `${formatCount(amount.data)} each to ${formatCountOf(count, 'user', 'users')}: ${credits(total)} in all.`}
      </MoveSummary>
    </CreditMoveForm>
  );
}
