import { CREDIT_POOLS } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount } from '../../../lib/format';
import { useTransferOrganizations } from '../api/transfer-organizations';
import { checkAvailable, credits } from '../forms/amount';
import { type OrganizationParty, poolName } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { OrganizationTargetSelect } from './organization-target-select';
import { PoolField } from './pool-field';

interface TransferOrganizationModalProps {
  opened: boolean;
  onClose: () => void;
  /** The organization whose sub-organizations are shown: a possible target. */
  parent: OrganizationParty;
  /** The selected sub-organization: the credits leave it. */
  source: OrganizationParty | null;
}

const partySchema = z.object({
  id: z.string(),
  name: z.string(),
  credits: z.object({ shared: z.number(), protected: z.number() }),
});

/**
 * "Transfer credits" from the one selected sub-organization to its parent or to another sub-organization
 * (POST /api/credit/transfer/organizations). Moving down is "Allocate credits".
 */
export function TransferOrganizationModal(props: TransferOrganizationModalProps) {
  return (
    <CreditModal opened={props.opened} onClose={props.onClose} title="Transfer credits">
      {props.source && <TransferOrganizationForm {...props} source={props.source} />}
    </CreditModal>
  );
}

function TransferOrganizationForm({
  parent,
  source,
  onClose,
}: TransferOrganizationModalProps & { source: OrganizationParty }) {
  const schema = useMemo(
    () =>
      z
        .object({
          fromPool: z.enum(CREDIT_POOLS),
          target: partySchema.nullable(),
          toPool: z.enum(CREDIT_POOLS),
          amount: amountField,
        })
        // One refinement for both, so that a missing target and too many credits show together.
        .superRefine((v, ctx) => {
          if (!v.target) ctx.addIssue({ code: 'custom', path: ['target'], message: MSG.required });
          checkAvailable(ctx, v.amount, source.credits[v.fromPool]);
        }),
    [source.credits],
  );
  const form = useCreditForm(useTransferOrganizations(), schema, {
    fromPool: 'shared',
    target: parent,
    toPool: 'shared',
    amount: '',
  });
  const { send, control, register, recheck, amount, formState } = form;
  const fromPool = useWatch({ control, name: 'fromPool' });
  const toPool = useWatch({ control, name: 'toPool' });
  const target = useWatch({ control, name: 'target' });
  const available = source.credits[fromPool];

  async function submit(values: z.output<typeof schema>) {
    const receiver = values.target;
    if (!receiver) return;
    const answer = await send({
      amount: values.amount,
      sourceOrganizationId: source.id,
      fromOrganizationPoolType: values.fromPool,
      targetOrganizationId: receiver.id,
      toOrganizationPoolType: values.toPool,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits transferred',
      message: `${credits(answer.total)} went from ${source.name} to ${receiver.name}.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm label="Transfer credits" form={form} onSubmit={submit} onCancel={onClose}>
      <PoolField
        control={control}
        name="fromPool"
        label={`From the pool of ${source.name}`}
        onPick={recheck}
        balances={source.credits}
      />
      <Controller
        control={control}
        name="target"
        render={({ field }) => (
          <OrganizationTargetSelect
            parent={parent}
            excludeId={source.id}
            description={`${parent.name} or another of its sub-organizations. To give credits down to ${source.name}, use Allocate credits.`}
            value={field.value}
            onChange={(value) => {
              field.onChange(value);
              recheck();
            }}
            error={formState.errors.target?.message}
          />
        )}
      />
      <PoolField
        control={control}
        name="toPool"
        label={target ? `Into the pool of ${target.name}` : 'Into the pool'}
        balances={target?.credits}
        balanceWord="now"
      />
      <AmountInput
        label="Credits to transfer"
        description={`At most ${formatCount(available)}, all of the ${poolName(fromPool)} of ${source.name}.`}
        error={formState.errors.amount?.message}
        {...register('amount')}
      />
      <MoveSummary
        after={
          amount.success && target && amount.data <= available
            ? `Afterwards: ${formatCount(available - amount.data)} in the ${poolName(fromPool)} of ${source.name}, ${formatCount(target.credits[toPool] + amount.data)} in the ${poolName(toPool)} of ${target.name}.`
            : undefined
        }
      >
        {amount.success && target
          ? `${credits(amount.data)} from the ${poolName(fromPool)} of ${source.name} to the ${poolName(toPool)} of ${target.name}.`
          : null}
      </MoveSummary>
    </CreditMoveForm>
  );
}
