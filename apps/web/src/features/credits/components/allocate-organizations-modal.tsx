import { CREDIT_POOLS } from '@allot/domain/credits';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useAssignOrganizations } from '../api/assign-organizations';
import { checkAvailable, credits } from '../forms/amount';
import { mostText, type OrganizationParty, organizationDetail, poolName } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { PoolField } from './pool-field';
import { SelectedParties } from './selected-parties';

interface AllocateOrganizationsModalProps {
  opened: boolean;
  onClose: () => void;
  /** The organization the credits come from (the one whose sub-organizations are shown). */
  source: OrganizationParty;
  /** The selected sub-organizations: each receives the amount. */
  targets: OrganizationParty[];
}

/** "Allocate credits" to the selected sub-organizations (POST /api/credit/assign/organizations). */
export function AllocateOrganizationsModal(props: AllocateOrganizationsModalProps) {
  return (
    <CreditModal
      opened={props.opened}
      onClose={props.onClose}
      title="Allocate credits"
      ready={props.targets.length > 0}
    >
      <AllocateOrganizationsForm {...props} />
    </CreditModal>
  );
}

function AllocateOrganizationsForm({ source, targets, onClose }: AllocateOrganizationsModalProps) {
  const count = targets.length;
  const single = count === 1 ? targets[0] : undefined;
  const schema = useMemo(
    () =>
      z
        .object({ fromPool: z.enum(CREDIT_POOLS), toPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) => checkAvailable(ctx, v.amount, source.credits[v.fromPool], count)),
    [source.credits, count],
  );
  // Credits handed down land where the organizations' teachers can use them (issue 33), taken from the reserve
  // (the protected pool) while it holds any.
  const form = useCreditForm(useAssignOrganizations(), schema, {
    fromPool: source.credits.protected > 0 || source.credits.shared === 0 ? 'protected' : 'shared',
    toPool: 'shared',
    amount: '',
  });
  const { send, control, register, recheck, amount, formState } = form;
  const fromPool = useWatch({ control, name: 'fromPool' });
  const toPool = useWatch({ control, name: 'toPool' });
  const available = source.credits[fromPool];
  const total = amount.success ? amount.data * count : 0;

  async function submit(values: z.output<typeof schema>) {
    const answer = await send({
      amount: values.amount,
      sourceOrganizationId: source.id,
      fromOrganizationPoolType: values.fromPool,
      targetOrganizationIds: targets.map((t) => t.id),
      toOrganizationPoolType: values.toPool,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits allocated',
      message: single
        ? `${credits(answer.total)} went to ${single.name}.`
        : `${formatCount(answer.amount)} each went to ${formatCountOf(count, 'organization', 'organizations')}: ${credits(answer.total)} in all.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm label="Allocate credits" form={form} onSubmit={submit} onCancel={onClose}>
      {!single && (
        <SelectedParties
          label={`To each of ${formatCountOf(count, 'organization', 'organizations')}`}
          parties={targets.map(organizationDetail)}
        />
      )}
      <PoolField
        control={control}
        name="fromPool"
        label={`From the pool of ${source.name}`}
        onPick={recheck}
        balances={source.credits}
      />
      <PoolField
        control={control}
        name="toPool"
        label={single ? `Into the pool of ${single.name}` : 'Into the pool of each organization'}
        balances={single?.credits}
        balanceWord="now"
      />
      <AmountInput
        label={single ? 'Credits to allocate' : 'Credits for each organization'}
        description={mostText(available, fromPool, count, 'organization')}
        error={formState.errors.amount?.message}
        {...register('amount')}
      />
      <MoveSummary
        after={
          amount.success && total <= available
            ? `Left in the ${poolName(fromPool)} of ${source.name}: ${formatCount(available - total)}.`
            : undefined
        }
      >
        {!amount.success
          ? null
          : single
            ? `${credits(amount.data)} to ${single.name}, into its ${poolName(toPool)}.`
            : `${formatCount(amount.data)} each to ${formatCountOf(count, 'organization', 'organizations')}: ${credits(total)} in all.`}
      </MoveSummary>
    </CreditMoveForm>
  );
}
