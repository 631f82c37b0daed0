import { CREDIT_POOLS, MAX_DESCRIPTION_LENGTH } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount } from '../../../lib/format';
import { useAllocateSystemCredits } from '../api/allocate-system-credits';
import { credits } from '../forms/amount';
import { type OrganizationParty, poolName } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { PoolField } from './pool-field';

interface AllocateSystemCreditsModalProps {
  opened: boolean;
  onClose: () => void;
  organization: OrganizationParty;
}

const schema = z.object({
  toPool: z.enum(CREDIT_POOLS),
  amount: amountField,
  description: z
    .string()
    .trim()
    .min(1, MSG.required)
    .max(MAX_DESCRIPTION_LENGTH, `At most ${MAX_DESCRIPTION_LENGTH} characters.`),
});

/** "Allocate credits" for a system admin: new credits into one pool, with the reason for the credit log. */
export function AllocateSystemCreditsModal(props: AllocateSystemCreditsModalProps) {
  return (
    <CreditModal opened={props.opened} onClose={props.onClose} title="Allocate new credits">
      <AllocateSystemCreditsForm {...props} />
    </CreditModal>
  );
}

function AllocateSystemCreditsForm({ organization, onClose }: AllocateSystemCreditsModalProps) {
  const balances = organization.credits;
  // New credits land where the organization's teachers can use them, unless the admin chooses (issue 33).
  const form = useCreditForm(useAllocateSystemCredits(), schema, {
    toPool: 'shared',
    amount: '',
    description: '',
  });
  const { send, control, register, amount, formState } = form;
  const toPool = useWatch({ control, name: 'toPool' });

  async function submit(values: z.output<typeof schema>) {
    const answer = await send({ organizationId: organization.id, ...values });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Credits allocated',
      message: `${credits(values.amount)} added to the ${poolName(values.toPool)} of ${organization.name}.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm
      label="Allocate new credits"
      form={form}
      onSubmit={submit}
      submitLabel="Allocate credits"
      onCancel={onClose}
    >
      <Text size="sm">
        As a system admin you create new credits for {organization.name}. They are not taken from any other
        organization; the credit log keeps the reason you give.
      </Text>
      <PoolField control={control} name="toPool" label="Into pool" balances={balances} balanceWord="now" />
      <AmountInput
        label="Credits to allocate"
        error={formState.errors.amount?.message}
        {...register('amount')}
      />
      <Textarea
        label="Description"
        description="Why the credits are created, e.g. the contract or the order. Shown in the credit log."
        required
        autosize
        minRows={2}
        maxRows={5}
        maxLength={MAX_DESCRIPTION_LENGTH}
        error={formState.errors.description?.message}
        {...register('description')}
      />
      <MoveSummary
        after={
          amount.success
            ? `Afterwards: ${formatCount(balances[toPool] + amount.data)} in the ${poolName(toPool)}.`
            : undefined
        }
      >
        {amount.success
          ? `${credits(amount.data)} new into the ${poolName(toPool)} of ${organization.name}.`
          : null}
      </MoveSummary>
    </CreditMoveForm>
  );
}
