import { formatMoney, type PriceList } from '@allot/domain/invoices';
import { Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadError } from '../../../components/load-error';

interface AmountSummaryProps {
  /** The price list query: its loading and failure show here, in the dialog. */
  priceList: UseQueryResult<PriceList>;
  /** The amount with today's price list; null while the fields do not make one yet. */
  amount: (list: PriceList) => number | null;
  /** How it is made up ("30 seats × 12 months × $3.00 per seat per month"). */
  breakdown?: (list: PriceList) => ReactNode;
  /** What to say while the fields do not make an amount. */
  placeholder: string;
}

/**
 * The live amount of an invoice dialog: the domain's formula over the price list, updated as the person
 * types, and the plain statement that the server computes the amount of the invoice itself.
 */
export function AmountSummary({ priceList, amount, breakdown, placeholder }: AmountSummaryProps) {
  if (priceList.isPending) {
    return (
      <Paper bg="gray.0" px="md" py="sm" withBorder aria-busy="true">
        <Group gap="sm">
          <Loader size="sm" aria-hidden="true" />
          <Text size="sm" c="dimmed">
            Loading the price list…
          </Text>
        </Group>
      </Paper>
    );
  }
  if (priceList.isError) {
    return (
      <LoadError
        title="The price list could not be loaded"
        error={priceList.error}
        onRetry={() => void priceList.refetch()}
        retrying={priceList.isRefetching}
      />
    );
  }
  const list = priceList.data;
  const value = amount(list);
  return (
    <Paper bg="gray.0" px="md" py="sm" withBorder aria-live="polite" aria-label="Amount">
      {value === null ? (
        <Text size="sm" c="dimmed">
          {placeholder}
        </Text>
      ) : (
        <Stack gap={4}>
          <Group justify="space-between" align="baseline" gap="xs">
            <Text size="sm" fw={600}>
              Amount
            </Text>
            <Text fz="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatMoney(value, list.currency)}
            </Text>
          </Group>
          {breakdown && (
            <Text size="sm" ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {breakdown(list)}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            The server computes the amount when it creates the invoice, from the price list of that moment.
          </Text>
        </Stack>
      )}
    </Paper>
  );
}
