import {
  CREDIT_POOLS,
  RECLAIM_STRATEGIES,
  RECLAIM_STRATEGY_LABEL,
  type ReclaimStrategy,
  reclaimableUnder,
} from '@allot/domain/credits';
import { Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useReclaimOrganizations } from '../api/reclaim-organizations';
import { checkAvailable, credits } from '../forms/amount';
import { type OrganizationParty, organizationDetail, poolName } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { PoolField } from './pool-field';
import { SelectedParties } from './selected-parties';

interface ReclaimOrganizationsModalProps {
  opened: boolean;
  onClose: () => void;
  /** The organization the credits come back to (the one whose sub-organizations are shown). */
  target: OrganizationParty;
  /** The selected sub-organizations: each gives the amount. */
  sources: OrganizationParty[];
}

const STRATEGY_OPTIONS = RECLAIM_STRATEGIES.map((value) => ({ value, label: RECLAIM_STRATEGY_LABEL[value] }));

/**
 * "Reclaim credits" from the selected sub-organizations (POST /api/credit/reclaim/organizations). Each must
 * have the amount in the pools the strategy drains: checked before sending against the balances shown, and
 * by the server, which names the first one short (the balances may have changed since).
 */
export function ReclaimOrganizationsModal(props: ReclaimOrganizationsModalProps) {
  return (
    <CreditModal
      opened={props.opened}
      onClose={props.onClose}
      title="Reclaim credits"
      ready={props.sources.length > 0}
    >
      <ReclaimOrganizationsForm {...props} />
    </CreditModal>
  );
}

function ReclaimOrganizationsForm({ target, sources, onClose }: ReclaimOrganizationsModalProps) {
  const count = sources.length;
  const single = count === 1 ? sources[0] : undefined;
  const schema = useMemo(
    () =>
      z
        .object({ strategy: z.enum(RECLAIM_STRATEGIES), toPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) =>
          checkAvailable(
            ctx,
            v.amount,
            Math.min(...sources.map((s) => reclaimableUnder(v.strategy, s.credits))),
          ),
        ),
    [sources],
  );
  const form = useCreditForm(
    useReclaimOrganizations(),
    schema,
    // What the parent gave for allocation comes back first; it returns to the parent's reserve.
    { strategy: 'protected_first', toPool: 'protected', amount: '' },
  );
  const { send, control, register, amount, formState } = form;
  const toPool = useWatch({ control, name: 'toPool' });
  const total = amount.success ? amount.data * count : 0;

  async function submit(values: z.output<typeof schema>) {
    const answer = await send({
      amount: values.amount,
      sourceOrganizationIds: sources.map((s) => s.id),
      reclaimFromStrategy: values.strategy,
      targetOrganizationId: target.id,
      toOrganizationPoolType: values.toPool,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits reclaimed',
      message: single
        ? `${credits(answer.total)} came back from ${single.name} to ${target.name}.`
        : `${formatCount(answer.amount)} from each of ${formatCountOf(count, 'organization', 'organizations')}: ${credits(answer.total)} back to ${target.name}.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm label="Reclaim credits" form={form} onSubmit={submit} reclaim onCancel={onClose}>
      <SelectedParties
        label={single ? 'From' : `From each of ${formatCountOf(count, 'organization', 'organizations')}`}
        parties={sources.map(organizationDetail)}
      />
      <Controller
        control={control}
        name="strategy"
        render={({ field }) => (
          <Select
            label={
              single ? `Take from the pools of ${single.name}` : 'Take from the pools of each organization'
            }
            description="With “first”, the other pool gives what the first one lacks."
            required
            data={STRATEGY_OPTIONS}
            value={field.value}
            onChange={(value) => value && field.onChange(value as ReclaimStrategy)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      <PoolField
        control={control}
        name="toPool"
        label={`Into the pool of ${target.name}`}
        balances={target.credits}
        balanceWord="now"
      />
      <AmountInput
        label={single ? 'Credits to reclaim' : 'Credits from each organization'}
        error={formState.errors.amount?.message}
        {...register('amount')}
      />
      <MoveSummary
        after={
          // Nothing "afterwards" for an amount the dialog already refuses (issue 33).
          amount.success && !formState.errors.amount
            ? `Afterwards: ${formatCount(target.credits[toPool] + total)} in the ${poolName(toPool)} of ${target.name}.`
            : undefined
        }
      >
        {!amount.success
          ? null
          : single
            ? `${credits(amount.data)} from ${single.name} into the ${poolName(toPool)} of ${target.name}.`
            : `${formatCount(amount.data)} from each of ${formatCountOf(count, 'organization', 'organizations')}: ${credits(total)} in all, into the ${poolName(toPool)} of ${target.name}.`}
      </MoveSummary>
    </CreditMoveForm>
  );
}
