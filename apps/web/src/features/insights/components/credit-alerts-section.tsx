import { CREDIT_ALERT_KINDS, type CreditAlertKind, MAX_CREDIT_ALERTS } from '@allot/domain/insights';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  List,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBell, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { LoadError } from '../../../components/load-error';
import { errorText } from '../../../lib/api-error';
import { serverFieldErrors } from '../../../lib/form-errors';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { checkThresholds, KIND_LABEL, type ThresholdRow, thresholdText, toRows } from '../alert-thresholds';
import { type CreditAlertsAnswer, useCreditAlerts, useUpdateCreditAlerts } from '../api/credit-alerts';

const KIND_OPTIONS = CREDIT_ALERT_KINDS.map((kind) => ({ value: kind, label: KIND_LABEL[kind] }));

interface Organization {
  id: string;
  name: string;
}

/**
 * General information's 'Low-balance alerts' (issue 16; decision 014): up to three thresholds on the shared
 * pool, a number of credits or a percentage of what the pool held after its last top-up; off (none) by
 * default. Crossing one mails the owner and the admins once, until the next top-up.
 */
export function CreditAlertsSection({ organization }: { organization: Organization }) {
  const { data, isPending, isError, error, refetch, isRefetching } = useCreditAlerts(organization.id);
  const words = useMailWords();
  return (
    <Card component="section" aria-labelledby="credit-alerts-heading">
      <Stack gap={4} mb="sm">
        <Group gap="xs">
          <IconBell size={20} aria-hidden="true" />
          <Title order={2} fz="h4" id="credit-alerts-heading">
            Low-balance alerts
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {words.creditAlerts.intro(organization.name)}
        </Text>
      </Stack>
      {isPending ? (
        <Skeleton height={72} role="status" aria-busy="true" aria-label="Loading the low-balance alerts" />
      ) : isError ? (
        <LoadError
          title="The low-balance alerts could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : (
        <AlertsForm key={JSON.stringify(data.thresholds)} organization={organization} saved={data} />
      )}
    </Card>
  );
}

/** What the saved thresholds mean now: the pool, its reference, each level in credits and what was sent. */
function SavedFigures({ saved }: { saved: CreditAlertsAnswer }) {
  const words = useMailWords();
  if (saved.thresholds.length === 0 || saved.sharedCredits === undefined) return null;
  return (
    <Stack gap={2}>
      <Text size="sm">
        Shared pool now: <b>{formatCount(saved.sharedCredits)}</b> credits
        {saved.referenceBalance != null && (
          <>
            {' '}
            · after its last top-up: <b>{formatCount(saved.referenceBalance)}</b>
          </>
        )}
      </Text>
      {saved.levels?.map((l) => (
        <Text key={`${l.kind}:${l.value}`} size="sm" c="dimmed">
          {thresholdText({ kind: l.kind as CreditAlertKind, value: l.value })}
          {l.kind === 'percent_of_last_topup' ? ` = ${formatCountOf(l.level, 'credit', 'credits')}` : ''}:{' '}
          {l.fired ? words.creditAlerts.fired : 'not reached since the last top-up'}
        </Text>
      ))}
    </Stack>
  );
}

function AlertsForm({ organization, saved }: { organization: Organization; saved: CreditAlertsAnswer }) {
  const update = useUpdateCreditAlerts();
  const words = useMailWords();
  const [rows, setRows] = useState<ThresholdRow[]>(() => toRows(saved.thresholds));
  const [rowErrors, setRowErrors] = useState<(string | null)[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const dirty = JSON.stringify(rows) !== JSON.stringify(toRows(saved.thresholds));

  const change = (index: number, next: Partial<ThresholdRow>) => {
    setRows((list) => list.map((row, i) => (i === index ? { ...row, ...next } : row)));
    setRowErrors((errors) => errors.map((e, i) => (i === index ? null : e)));
    setFormError(null);
  };
  const remove = (index: number) => {
    setRows((list) => list.filter((_, i) => i !== index));
    setRowErrors((errors) => errors.filter((_, i) => i !== index));
    setFormError(null);
  };
  const add = () => {
    setRows((list) => [...list, { kind: 'percent_of_last_topup', value: '' }]);
    setFormError(null);
  };

  async function submit() {
    const check = checkThresholds(rows);
    if (!check.ok) {
      setRowErrors(check.rowErrors);
      setFormError(check.formError);
      return;
    }
    setFormError(null);
    try {
      const answer = await update.mutateAsync({
        organizationId: organization.id,
        thresholds: check.thresholds,
      });
      const now = answer?.thresholds ?? check.thresholds;
      notifications.show({
        color: 'green',
        title: 'Low-balance alerts saved',
        message:
          now.length === 0
            ? `No alerts for ${organization.name}.`
            : words.creditAlerts.saved(organization.name, now.map(thresholdText).join(', ')),
      });
    } catch (cause) {
      const fields = serverFieldErrors(cause);
      const perRow = rows.map((_, i) => fields[`thresholds.${i}.value`] ?? null);
      setRowErrors(perRow);
      setFormError(perRow.some(Boolean) ? null : errorText(cause));
    }
  }

  return (
    <form
      noValidate
      aria-label="Low-balance alerts"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        {formError && <FormAlert title="Not saved">{formError}</FormAlert>}
        <SavedFigures saved={saved} />
        {rows.length === 0 ? (
          <Text size="sm" fw={500}>
            No alerts: nobody is emailed about the shared pool's balance.
          </Text>
        ) : (
          <List listStyleType="none" spacing="xs" p={0} m={0} aria-label="Thresholds">
            {rows.map((row, index) => (
              <List.Item key={index}>
                <Group gap="sm" align="flex-start" wrap="nowrap">
                  <Select
                    aria-label={`Threshold ${index + 1}: kind`}
                    data={KIND_OPTIONS}
                    value={row.kind}
                    allowDeselect={false}
                    onChange={(kind) => kind && change(index, { kind: kind as CreditAlertKind })}
                    w={230}
                  />
                  <TextInput
                    aria-label={`Threshold ${index + 1}: ${row.kind === 'credits' ? 'credits' : 'percent'}`}
                    inputMode="numeric"
                    autoComplete="off"
                    value={row.value}
                    placeholder={row.kind === 'credits' ? 'e.g. 500' : 'e.g. 10'}
                    rightSection={
                      <Text size="sm" c="dimmed" aria-hidden="true">
                        {row.kind === 'credits' ? 'cr.' : '%'}
                      </Text>
                    }
                    onChange={(event) => change(index, { value: event.currentTarget.value })}
                    error={rowErrors[index] ?? undefined}
                    w={200}
                    styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
                  />
                  <Tooltip label="Remove">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={`Remove threshold ${index + 1}`}
                      onClick={() => remove(index)}
                    >
                      <IconTrash size={18} aria-hidden="true" />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={add}
            disabled={rows.length >= MAX_CREDIT_ALERTS}
          >
            Add threshold
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!dirty}>
            Save
          </Button>
          {rows.length >= MAX_CREDIT_ALERTS && (
            <Text size="sm" c="dimmed">
              At most {MAX_CREDIT_ALERTS} thresholds.
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}
