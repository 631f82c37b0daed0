import { CREDIT_POOLS } from '@allot/domain/credits';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { formatCount } from '../../../lib/format';
import { useAssignOrganizations } from '../api/assign-organizations';
import { amountField, checkAvailable, credits, mostEach, plural } from '../forms/amount';
import { type OrganizationParty, organizationDetail, poolName } from '../forms/parties';
import { useCreditMove } from '../hooks/use-credit-move';
import { AmountInput } from './amount-input';
import { CreditMoveAlert } from './credit-move-alert';
import { MoveSummary } from './move-summary';
import { PoolChoice } from './pool-choice';
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
    <Modal opened={props.opened} onClose={props.onClose} title="Allocate credits" size="lg" centered>
      {props.opened && props.targets.length > 0 && <AllocateOrganizationsForm {...props} />}
    </Modal>
  );
}

function AllocateOrganizationsForm({ source, targets, onClose }: AllocateOrganizationsModalProps) {
  const count = targets.length;
  const single = count === 1 ? targets[0] : undefined;
  const move = useCreditMove(useAssignOrganizations());
  const schema = useMemo(
    () =>
      z
        .object({ fromPool: z.enum(CREDIT_POOLS), toPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) => checkAvailable(ctx, v.amount, source.credits[v.fromPool], count)),
    [source.credits, count],
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
    defaultValues: { fromPool: 'protected', toPool: 'protected', amount: '' },
  });
  const fromPool = useWatch({ control, name: 'fromPool' });
  const toPool = useWatch({ control, name: 'toPool' });
  // A choice that changes what the amount may be re-checks it, once the form was sent.
  const recheck = () => {
    if (isSubmitted) void trigger();
  };
  const amount = amountField.safeParse(useWatch({ control, name: 'amount' }));
  const available = source.credits[fromPool];
  const total = amount.success ? amount.data * count : 0;

  async function submit(values: z.output<typeof schema>) {
    const answer = await move.send(
      {
        amount: values.amount,
        sourceOrganizationId: source.id,
        fromOrganizationPoolType: values.fromPool,
        targetOrganizationIds: targets.map((t) => t.id),
        toOrganizationPoolType: values.toPool,
      },
      (message) => setError('amount', { message }),
    );
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits allocated',
      message: single
        ? `${credits(answer.total)} went to ${single.name}.`
        : `${formatCount(answer.amount)} each went to ${plural(count, 'organization')}: ${credits(answer.total)} in all.`,
    });
    onClose();
  }

  return (
    <form noValidate aria-label="Allocate credits" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {move.failure && <CreditMoveAlert message={move.failure} />}
        {!single && (
          <SelectedParties
            label={`To each of ${plural(count, 'organization')}`}
            parties={targets.map(organizationDetail)}
          />
        )}
        <Controller
          control={control}
          name="fromPool"
          render={({ field }) => (
            <PoolChoice
              label={`From the pool of ${source.name}`}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                recheck();
              }}
              balances={source.credits}
            />
          )}
        />
        <Controller
          control={control}
          name="toPool"
          render={({ field }) => (
            <PoolChoice
              label={single ? `Into the pool of ${single.name}` : 'Into the pool of each organization'}
              value={field.value}
              onChange={field.onChange}
              balances={single?.credits}
              balanceWord="now"
            />
          )}
        />
        <AmountInput
          label={single ? 'Credits to allocate' : 'Credits for each organization'}
          description={
            single
              ? `At most ${formatCount(available)}, all of the ${poolName(fromPool)}.`
              : `At most ${formatCount(mostEach(available, count))} each: the ${poolName(fromPool)} holds ${formatCount(available)} for ${plural(count, 'organization')}.`
          }
          error={errors.amount?.message}
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
              : `${formatCount(amount.data)} each to ${plural(count, 'organization')}: ${credits(total)} in all.`}
        </MoveSummary>
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Allocate credits" />
      </Stack>
    </form>
  );
}
