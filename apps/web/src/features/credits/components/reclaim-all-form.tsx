import type { CreditPool } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useId, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { errorText, isApiError } from '../../../lib/api-error';
import { formatCount, formatCountOf } from '../../../lib/format';
import { newIdempotencyKey } from '../../../lib/use-idempotency-key';
import { invalidateCreditQueries } from '../api/credit-move';
import { useReclaimUsers } from '../api/reclaim-users';
import { credits } from '../forms/amount';
import { type OrganizationParty, poolName, type UserParty } from '../forms/parties';
import { reclaimAllCalls, reclaimAllTotal } from '../forms/reclaim-all';
import { CreditMoveForm } from './credit-move-form';
import { MoveSummary } from './move-summary';
import { PoolField } from './pool-field';

interface ReclaimAllFormProps {
  organization: OrganizationParty;
  users: UserParty[];
  onClose: () => void;
  /** The choice between an amount and everything, shown first. */
  choice: ReactNode;
}

/** How a series ended when not every call went through: who gave back, who did not and why. */
interface PartOutcome {
  returned: { users: UserParty[]; total: number };
  refused: { users: UserParty[]; message: string }[];
}

const names = (users: readonly UserParty[]) => users.map((u) => u.name).join(', ');

/**
 * "Everything each holds" (issue 33, item 8): each selected person gives back their whole balance in this
 * organization, as the list shows it. The reclaim call takes one amount from each person it names (CONTRACT §5),
 * so this sends one call per distinct balance (`reclaimAllCalls`), one after the other, each with its own
 * `Idempotency-Key` (kept for a retry of the same call, as every dialog does). Each call is all or nothing; the
 * series is not, and the dialog says so before and after: a balance that changed since the list was read refuses
 * its own call, the others go through, and the list then shows what is left.
 */
export function ReclaimAllForm({ organization, users, onClose, choice }: ReclaimAllFormProps) {
  const reclaim = useReclaimUsers();
  const keys = useRef(new Map<string, string>());
  const [failure, setFailure] = useState<string | null>(null);
  const [partly, setPartly] = useState<PartOutcome | null>(null);
  const form = useForm<{ toPool: CreditPool }>({ defaultValues: { toPool: 'shared' } });
  const toPool = useWatch({ control: form.control, name: 'toPool' });
  const calls = reclaimAllCalls(users);
  const total = reclaimAllTotal(calls);
  const holders = calls.flatMap((call) => call.users);
  const empty = users.filter((u) => u.credits <= 0);
  const single = users.length === 1 ? users[0] : undefined;
  const fromId = useId();

  function keyFor(body: unknown): string {
    const content = JSON.stringify(body);
    const key = keys.current.get(content) ?? newIdempotencyKey();
    keys.current.set(content, key);
    return key;
  }

  async function submit(values: { toPool: CreditPool }) {
    setFailure(null);
    setPartly(null);
    const outcome: PartOutcome = { returned: { users: [], total: 0 }, refused: [] };
    for (const call of calls) {
      const input = {
        amount: call.amount,
        userIds: call.users.map((u) => u.id),
        organizationId: organization.id,
        toOrganizationPoolType: values.toPool,
      };
      const content = JSON.stringify(input);
      try {
        const answer = await reclaim.mutateAsync({ input, idempotencyKey: keyFor(input) });
        outcome.returned.users.push(...call.users);
        outcome.returned.total += answer.total;
      } catch (error) {
        // A definite refusal is kept as that key's answer: a retry is decided afresh (use-idempotency-key.ts).
        if (isApiError(error) && error.status >= 400 && error.status < 500) keys.current.delete(content);
        outcome.refused.push({ users: call.users, message: errorText(error) });
      }
    }
    if (outcome.refused.length > 0) {
      void invalidateCreditQueries();
      if (outcome.returned.users.length === 0)
        setFailure(outcome.refused[0]?.message ?? MSG.somethingWentWrong);
      else setPartly(outcome);
      return;
    }
    notifications.show({
      color: 'green',
      title: 'Credits reclaimed',
      message: single
        ? `${credits(outcome.returned.total)} came back from ${single.name}: all they held.`
        : `Everything they held: ${credits(outcome.returned.total)} from ${formatCountOf(holders.length, 'user', 'users')} back to ${organization.name}.`,
    });
    onClose();
  }

  return (
    <CreditMoveForm
      label="Reclaim credits"
      form={{ handleSubmit: form.handleSubmit, formState: form.formState, failure }}
      onSubmit={submit}
      reclaim
      onCancel={onClose}
      submitDisabled={total === 0}
    >
      {partly && (
        <FormAlert title="Only some credits were reclaimed">
          <Text size="sm" inherit>
            {credits(partly.returned.total)} came back from {names(partly.returned.users)}.
          </Text>
          {partly.refused.map((part) => (
            <Text size="sm" inherit key={names(part.users)}>
              <CreditMoveAlertLine users={part.users} message={part.message} />
            </Text>
          ))}
          <Text size="sm" inherit>
            The list now shows what each holds: reclaim again to take the rest.
          </Text>
        </FormAlert>
      )}
      {choice}
      <Text size="sm" fw={500} id={fromId}>
        {single ? 'From' : `From each of ${formatCountOf(users.length, 'user', 'users')}: all they hold`}
      </Text>
      <List size="sm" spacing={2} aria-labelledby={fromId} withPadding={users.length > 1}>
        {users.map((u) => (
          <List.Item key={u.id}>
            {u.name}{' '}
            <Text span c="dimmed" inherit>
              {u.credits > 0 ? credits(u.credits) : 'holds nothing: left out'}
            </Text>
          </List.Item>
        ))}
      </List>
      <PoolField
        control={form.control}
        name="toPool"
        label={`Into the pool of ${organization.name}`}
        balances={organization.credits}
        balanceWord="now"
      />
      <MoveSummary
        after={
          total > 0
            ? `Afterwards: ${formatCount(organization.credits[toPool] + total)} in the ${poolName(toPool)} of ${organization.name}.`
            : undefined
        }
      >
        {total === 0
          ? `${single ? `${single.name} holds` : 'The people selected hold'} no credits in ${organization.name}: there is nothing to reclaim.`
          : `${credits(total)} in all, into the ${poolName(toPool)}${
              empty.length > 0
                ? `; ${formatCountOf(empty.length, 'user', 'users')} holding nothing left out`
                : ''
            }.`}
      </MoveSummary>
      {calls.length > 1 && (
        <Text size="xs" c="dimmed">
          Sent as {formatCount(calls.length)} reclaims, one for each amount held (a reclaim takes the same
          amount from each person it names). Each is all or nothing; if a balance changed since the list was
          read, only that reclaim is refused and the others go through.
        </Text>
      )}
    </CreditMoveForm>
  );
}

/** "Not from Cid, Dee: Not enough …" */
function CreditMoveAlertLine({ users, message }: { users: UserParty[]; message: string }) {
  return (
    <>
      <Text span fw={600} inherit>
        Not from {names(users)}
      </Text>
      : {message}
    </>
  );
}
