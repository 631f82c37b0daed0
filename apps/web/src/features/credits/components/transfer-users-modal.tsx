import { MSG } from '@allot/domain/messages';
import { Group, Input, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { amountField } from '../../../lib/credit-amount';
import { formatCount } from '../../../lib/format';
import { useTransferUsers } from '../api/transfer-users';
import { checkAvailable, credits } from '../forms/amount';
import type { UserParty } from '../forms/parties';
import { useCreditForm } from '../hooks/use-credit-form';
import { AmountInput } from './amount-input';
import { CreditModal, CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { UserTargetSelect } from './user-target-select';

interface TransferUsersModalProps {
  opened: boolean;
  onClose: () => void;
  organizationId: string;
  /** One selected user (the target is picked in the dialog) or two (one gives, the other receives). */
  users: UserParty[];
}

const userSchema = z.object({ id: z.string(), name: z.string(), email: z.string(), credits: z.number() });

/**
 * "Transfer credits" from one member's balance to another's in this organization (POST
 * /api/credit/transfer/users, CONTRACT §5: credits per membership). With two users selected the dialog asks which
 * one gives; with one, it asks who receives.
 */
export function TransferUsersModal(props: TransferUsersModalProps) {
  const ready = props.users.length === 1 || props.users.length === 2;
  return (
    <CreditModal opened={props.opened} onClose={props.onClose} title="Transfer credits" ready={ready}>
      <TransferUsersForm {...props} />
    </CreditModal>
  );
}

function TransferUsersForm({ organizationId, users, onClose }: TransferUsersModalProps) {
  const pair = users.length === 2;
  const schema = useMemo(
    () =>
      z
        .object({
          sourceId: z.string(),
          target: userSchema.nullable(),
          amount: amountField,
        })
        // One refinement for both, so that a missing target and too many credits show together.
        .superRefine((v, ctx) => {
          if (!v.target) ctx.addIssue({ code: 'custom', path: ['target'], message: MSG.required });
          checkAvailable(ctx, v.amount, users.find((u) => u.id === v.sourceId)?.credits ?? 0);
        }),
    [users],
  );
  const [first, second] = users as [UserParty, UserParty | undefined];
  const form = useCreditForm(useTransferUsers(), schema, {
    sourceId: first.id,
    target: second ?? null,
    amount: '',
  });
  const { send, control, register, setValue, recheck, amount, formState } = form;
  const sourceId = useWatch({ control, name: 'sourceId' });
  const target = useWatch({ control, name: 'target' });
  const source = users.find((u) => u.id === sourceId) ?? first;

  async function submit(values: z.output<typeof schema>) {
    const receiver = values.target;
    if (!receiver) return;
    const answer = await send({
      amount: values.amount,
      sourceUserId: values.sourceId,
      targetUserId: receiver.id,
      organizationId,
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
      {pair ? (
        <Controller
          control={control}
          name="sourceId"
          render={({ field }) => (
            <Radio.Group
              label="From"
              description="The other user receives the credits."
              value={field.value}
              onChange={(id) => {
                field.onChange(id);
                setValue('target', users.find((u) => u.id !== id) ?? null);
                recheck();
              }}
            >
              <SimpleGrid cols={2} spacing="sm" mt={4}>
                {users.map((user) => (
                  <Radio.Card key={user.id} value={user.id} px="sm" py={8} radius="md">
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Radio.Indicator mt={2} />
                      <Stack gap={0} style={{ minWidth: 0 }}>
                        <Text size="sm" fw={600} truncate>
                          {user.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {credits(user.credits)} now
                        </Text>
                      </Stack>
                    </Group>
                  </Radio.Card>
                ))}
              </SimpleGrid>
            </Radio.Group>
          )}
        />
      ) : (
        <PartyLine label="From" name={first.name} detail={`${first.email} · ${credits(first.credits)} now`} />
      )}
      {pair ? (
        <PartyLine
          label="To"
          name={target?.name}
          detail={target ? `${target.email} · ${credits(target.credits)} now` : ''}
        />
      ) : (
        <Controller
          control={control}
          name="target"
          render={({ field }) => (
            <UserTargetSelect
              organizationId={organizationId}
              excludeId={first.id}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                recheck();
              }}
              error={formState.errors.target?.message}
            />
          )}
        />
      )}
      <AmountInput
        label="Credits to transfer"
        description={`At most ${formatCount(source.credits)}, all that ${source.name} holds.`}
        error={formState.errors.amount?.message}
        {...register('amount')}
      />
      <MoveSummary
        after={
          amount.success && target && amount.data <= source.credits
            ? `Afterwards: ${source.name} ${formatCount(source.credits - amount.data)}, ${target.name} ${formatCount(target.credits + amount.data)}.`
            : undefined
        }
      >
        {amount.success && target ? `${credits(amount.data)} from ${source.name} to ${target.name}.` : null}
      </MoveSummary>
    </CreditMoveForm>
  );
}

/** A party the dialog names without a choice: its label, then the name and the balance. */
function PartyLine({ label, name, detail }: { label: string; name: string | undefined; detail: string }) {
  return (
    <Stack gap={2}>
      <Input.Label labelElement="div">{label}</Input.Label>
      <Text size="sm">
        <Text span fw={600} inherit>
          {name}
        </Text>{' '}
        <Text span c="dimmed" inherit>
          {detail}
        </Text>
      </Text>
    </Stack>
  );
}
