import type { IntegrationSettings } from '@allot/domain/integration';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormAlert } from '../../../components/form-alert';
import { LoadError } from '../../../components/load-error';
import { applyServerErrors } from '../../../lib/form-errors';
import { useIntegrationSettings } from '../api/get-integration-settings';
import { useUpdateIntegrationSettings } from '../api/update-integration-settings';
import {
  consumedTodayText,
  type DailyLimitValues,
  dailyLimitFormSchema,
  dailyLimitText,
  savedLimitText,
} from '../forms/daily-limit';

interface DailyLimitCardProps {
  organization: { id: string; name: string };
}

/**
 * 'Daily limit' (issue 15): the most credits the classroom product may consume in a day for the
 * organization's own members; empty is no limit. With today's consumption.
 */
export function DailyLimitCard({ organization }: DailyLimitCardProps) {
  const { data, isPending, isError, error, refetch, isRefetching } = useIntegrationSettings(organization.id);
  return (
    <Card component="section" aria-labelledby="daily-limit-heading">
      <Stack gap={2} mb="sm">
        <Title order={3} fz="h5" id="daily-limit-heading">
          Daily limit
        </Title>
        <Text size="sm" c="dimmed">
          The most credits the classroom product may consume in one day (UTC) for the members of{' '}
          {organization.name}; each organization below has its own limit. Above it, consumption is refused
          until the next day.
        </Text>
      </Stack>
      {isPending ? (
        <Skeleton height={60} role="status" aria-busy="true" aria-label="Loading the daily limit" />
      ) : isError ? (
        <LoadError
          title="The daily limit could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : (
        <DailyLimitForm organization={organization} settings={data} />
      )}
    </Card>
  );
}

function DailyLimitForm({
  organization,
  settings,
}: {
  organization: { id: string; name: string };
  settings: IntegrationSettings;
}) {
  const update = useUpdateIntegrationSettings();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<DailyLimitValues, unknown, z.output<typeof dailyLimitFormSchema>>({
    resolver: zodResolver(dailyLimitFormSchema),
    defaultValues: { dailyConsumptionLimit: dailyLimitText(settings.dailyConsumptionLimit) },
  });

  async function submit(values: z.output<typeof dailyLimitFormSchema>) {
    setFormError(null);
    try {
      const saved = await update.mutateAsync({ organizationId: organization.id, ...values });
      reset({ dailyConsumptionLimit: dailyLimitText(saved.dailyConsumptionLimit) });
      notifications.show({
        color: 'green',
        title: 'Daily limit saved',
        message: savedLimitText(saved.dailyConsumptionLimit, organization.name),
      });
    } catch (cause) {
      setFormError(
        applyServerErrors(cause, ['dailyConsumptionLimit'], (field, message) => setError(field, { message })),
      );
    }
  }

  return (
    <form noValidate aria-label="Daily limit" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {formError && <FormAlert title="Not saved">{formError}</FormAlert>}
        <TextInput
          label="Credits per day"
          description="Leave it empty for no limit."
          placeholder="No limit"
          inputMode="numeric"
          autoComplete="off"
          styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
          error={errors.dailyConsumptionLimit?.message}
          // Save sits beside the input, between its description and its error.
          inputContainer={(input) => (
            <Group gap="sm" wrap="nowrap" align="center">
              <div style={{ width: 240 }}>{input}</div>
              <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
                Save
              </Button>
            </Group>
          )}
          {...register('dailyConsumptionLimit')}
        />
        <Text size="sm" fw={500}>
          {consumedTodayText(settings.consumedToday, settings.dailyConsumptionLimit)}
        </Text>
      </Stack>
    </form>
  );
}
