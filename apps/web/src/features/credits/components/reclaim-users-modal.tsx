import { CREDIT_POOLS } from '@allot/domain/credits';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { formatCount } from '../../../lib/format';
import { useReclaimUsers } from '../api/reclaim-users';
import { amountField, credits, plural } from '../forms/amount';
import { type OrganizationParty, poolName, type UserParty, userDetail } from '../forms/parties';
import { useCreditMove } from '../hooks/use-credit-move';
import { AmountInput } from './amount-input';
import { CreditMoveAlert } from './credit-move-alert';
import { LeftOutNote } from './left-out-note';
import { MoveSummary } from './move-summary';
import { PoolChoice } from './pool-choice';
import { SelectedParties } from './selected-parties';

interface ReclaimUsersModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
  /** The selected members: each gives the amount. */
  users: UserParty[];
  /** Selected people left out because their invitation is pending. */
  leftOut?: number;
}

const schema = z.object({ toPool: z.enum(CREDIT_POOLS), amount: amountField });

/**
 * "Reclaim credits" from the selected users into a pool of the organization (POST /api/credit/reclaim/users).
 * Whether each has enough is the server's to decide: it names the first one short.
 */
export function ReclaimUsersModal(props: ReclaimUsersModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Reclaim credits" size="lg" centered>
      {props.opened && props.users.length > 0 && <ReclaimUsersForm {...props} />}
    </Modal>
  );
}

function ReclaimUsersForm({ organization, users, leftOut = 0, onClose }: ReclaimUsersModalProps) {
  const count = users.length;
  const single = count === 1 ? users[0] : undefined;
  const move = useCreditMove(useReclaimUsers());
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { toPool: 'shared', amount: '' },
  });
  const toPool = useWatch({ control, name: 'toPool' });
  const amount = amountField.safeParse(useWatch({ control, name: 'amount' }));
  const total = amount.success ? amount.data * count : 0;

  async function submit(values: z.output<typeof schema>) {
    const answer = await move.send(
      {
        amount: values.amount,
        userIds: users.map((u) => u.id),
        organizationId: organization.id,
        toOrganizationPoolType: values.toPool,
      },
      (message) => setError('amount', { message }),
    );
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits reclaimed',
      message: single
        ? `${credits(answer.total)} came back from ${single.name}.`
        : `${formatCount(answer.amount)} from each of ${plural(count, 'user')}: ${credits(answer.total)} back to ${organization.name}.`,
    });
    onClose();
  }

  return (
    <form noValidate aria-label="Reclaim credits" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {move.failure && <CreditMoveAlert reclaim message={move.failure} />}
        <SelectedParties
          label={single ? 'From' : `From each of ${plural(count, 'user')}`}
          parties={users.map(userDetail)}
        />
        <LeftOutNote count={leftOut} />
        <Controller
          control={control}
          name="toPool"
          render={({ field }) => (
            <PoolChoice
              label={`Into the pool of ${organization.name}`}
              value={field.value}
              onChange={field.onChange}
              balances={organization.credits}
              balanceWord="now"
            />
          )}
        />
        <AmountInput
          label={single ? 'Credits to reclaim' : 'Credits from each user'}
          error={errors.amount?.message}
          {...register('amount')}
        />
        <MoveSummary
          after={
            amount.success
              ? `Afterwards: ${formatCount(organization.credits[toPool] + total)} in the ${poolName(toPool)} of ${organization.name}.`
              : undefined
          }
        >
          {!amount.success
            ? null
            : single
              ? `${credits(amount.data)} from ${single.name} into the ${poolName(toPool)}.`
              : `${formatCount(amount.data)} from each of ${plural(count, 'user')}: ${credits(total)} in all, into the ${poolName(toPool)}.`}
        </MoveSummary>
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Reclaim credits" />
      </Stack>
    </form>
  );
}
