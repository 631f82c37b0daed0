import { CREDIT_POOLS } from '@allot/domain/credits';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { formatCount } from '../../../lib/format';
import { useAssignUsers } from '../api/assign-users';
import { amountField, checkAvailable, credits, mostEach, plural } from '../forms/amount';
import { type OrganizationParty, poolName, type UserParty, userDetail } from '../forms/parties';
import { useCreditMove } from '../hooks/use-credit-move';
import { AmountInput } from './amount-input';
import { CreditMoveAlert } from './credit-move-alert';
import { LeftOutNote } from './left-out-note';
import { MoveSummary } from './move-summary';
import { PoolChoice } from './pool-choice';
import { SelectedParties } from './selected-parties';

interface AllocateUsersModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
  /** The selected members: each receives the amount. */
  users: UserParty[];
  /** Selected people left out because their invitation is pending. */
  leftOut?: number;
}

/** "Allocate credits" to the selected users from a pool of the organization (POST /api/credit/assign/users). */
export function AllocateUsersModal(props: AllocateUsersModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Allocate credits" size="lg" centered>
      {props.opened && props.users.length > 0 && <AllocateUsersForm {...props} />}
    </Modal>
  );
}

function AllocateUsersForm({ organization, users, leftOut = 0, onClose }: AllocateUsersModalProps) {
  const count = users.length;
  const single = count === 1 ? users[0] : undefined;
  const move = useCreditMove(useAssignUsers());
  const schema = useMemo(
    () =>
      z
        .object({ fromPool: z.enum(CREDIT_POOLS), amount: amountField })
        .superRefine((v, ctx) => checkAvailable(ctx, v.amount, organization.credits[v.fromPool], count)),
    [organization.credits, count],
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
    // Teachers' credits normally come from the shared pool, the one they draw from anyway.
    defaultValues: { fromPool: 'shared', amount: '' },
  });
  const fromPool = useWatch({ control, name: 'fromPool' });
  // A choice that changes what the amount may be re-checks it, once the form was sent.
  const recheck = () => {
    if (isSubmitted) void trigger();
  };
  const amount = amountField.safeParse(useWatch({ control, name: 'amount' }));
  const available = organization.credits[fromPool];
  const total = amount.success ? amount.data * count : 0;

  async function submit(values: z.output<typeof schema>) {
    const answer = await move.send(
      {
        amount: values.amount,
        userIds: users.map((u) => u.id),
        organizationId: organization.id,
        fromOrganizationPoolType: values.fromPool,
      },
      (message) => setError('amount', { message }),
    );
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits allocated',
      message: single
        ? `${credits(answer.total)} went to ${single.name}.`
        : `${formatCount(answer.amount)} each went to ${plural(count, 'user')}: ${credits(answer.total)} in all.`,
    });
    onClose();
  }

  return (
    <form noValidate aria-label="Allocate credits" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {move.failure && <CreditMoveAlert message={move.failure} />}
        <SelectedParties
          label={single ? 'To' : `To each of ${plural(count, 'user')}`}
          parties={users.map(userDetail)}
        />
        <LeftOutNote count={leftOut} />
        <Controller
          control={control}
          name="fromPool"
          render={({ field }) => (
            <PoolChoice
              label={`From the pool of ${organization.name}`}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                recheck();
              }}
              balances={organization.credits}
            />
          )}
        />
        <AmountInput
          label={single ? 'Credits to allocate' : 'Credits for each user'}
          description={
            single
              ? `At most ${formatCount(available)}, all of the ${poolName(fromPool)}.`
              : `At most ${formatCount(mostEach(available, count))} each: the ${poolName(fromPool)} holds ${formatCount(available)} for ${plural(count, 'user')}.`
          }
          error={errors.amount?.message}
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
              : `${formatCount(amount.data)} each to ${plural(count, 'user')}: ${credits(total)} in all.`}
        </MoveSummary>
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Allocate credits" />
      </Stack>
    </form>
  );
}
