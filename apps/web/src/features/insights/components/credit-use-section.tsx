import '@mantine/charts/styles.css';
import type { CreditUsage, CreditUsageDay } from '@allot/domain/insights';
import { BarChart } from '@mantine/charts';
import {
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconChartBar, IconTable } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { LoadError } from '../../../components/load-error';
import { formatCount, formatMediumDay, formatShortDay } from '../../../lib/format';
import { useCreditUsage } from '../api/get-credit-usage';
import { burnRateText, forecastText } from '../usage-text';

const PERIODS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '365 days' },
];

/** The three figures of a day, each with its colour (the legend, the table's headers and the chart agree). */
const SERIES = [
  { name: 'received', label: 'Received', color: 'blue.6' },
  { name: 'handedDown', label: 'Handed down', color: 'grape.5' },
  { name: 'consumed', label: 'Consumed', color: 'orange.6' },
] as const;

function totals(days: CreditUsageDay[]) {
  return days.reduce(
    (sum, d) => ({
      received: sum.received + d.received,
      handedDown: sum.handedDown + d.handedDown,
      consumed: sum.consumed + d.consumed,
    }),
    { received: 0, handedDown: 0, consumed: 0 },
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Consumption has its own chart: the top-ups a pool receives are often a hundred times a day's consumption,
 * and on one scale with them the bars that say "when do we run out" were too small to see.
 */
const CONSUMPTION = SERIES.filter((s) => s.name === 'consumed');
const MOVES = SERIES.filter((s) => s.name !== 'consumed');

function UsageChart({
  days,
  series,
  height,
  title,
  description,
}: {
  days: CreditUsageDay[];
  series: readonly (typeof SERIES)[number][];
  height: number;
  title: string;
  description: string;
}) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600} id={`${id}-title`}>
        {title}
      </Text>
      <div role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-description`}>
        <span id={`${id}-description`} hidden>
          {`Chart: ${description} Choose "Show as table" for the figures.`}
        </span>
        <BarChart
          h={height}
          data={days}
          dataKey="date"
          series={series.map((s) => ({ ...s }))}
          withLegend={series.length > 1}
          legendProps={{ verticalAlign: 'top', height: 28 }}
          valueFormatter={formatCount}
          xAxisProps={{ tickFormatter: formatShortDay, minTickGap: 24 }}
          tooltipProps={{ labelFormatter: (label) => formatMediumDay(String(label)) }}
          gridAxis="x"
          tickLine="y"
          barProps={{ radius: 1 }}
        />
      </div>
    </Stack>
  );
}

function UsageTable({ usage, caption }: { usage: CreditUsage; caption: string }) {
  // Newest first, as every log of the app; days without any activity are left out of the table.
  const rows = usage.days.filter((d) => d.received || d.handedDown || d.consumed).reverse();
  return (
    <Table.ScrollContainer minWidth={480} mah={360}>
      <Table striped highlightOnHover verticalSpacing={4} stickyHeader>
        <caption style={{ captionSide: 'top', textAlign: 'left', paddingBottom: 4 }}>
          <Text size="sm" c="dimmed" span>
            {caption}
            {rows.length < usage.days.length ? ' Days without activity are left out.' : ''}
          </Text>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Day (UTC)</Table.Th>
            {SERIES.map((s) => (
              <Table.Th key={s.name} ta="right">
                {s.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text size="sm" c="dimmed">
                  No credits received, handed down or consumed in this period.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((d) => (
              <Table.Tr key={d.date}>
                <Table.Td>
                  <time dateTime={d.date}>{formatMediumDay(d.date)}</time>
                </Table.Td>
                {SERIES.map((s) => (
                  <Table.Td key={s.name} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatCount(d[s.name])}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * General information's 'Credit use' (issue 16; decision 014): per day, the credits received, handed down
 * and consumed in the organization and below, over 30, 90 or 365 days; the mean consumption of the last 28
 * days and when, at that rate, the credits held run out. The chart's figures are also a table.
 */
export function CreditUseSection({ organization }: { organization: { id: string; name: string } }) {
  const [period, setPeriod] = useState('90');
  const [asTable, setAsTable] = useState(false);
  const { data, isPending, isError, error, refetch, isRefetching, isPlaceholderData } = useCreditUsage(
    organization.id,
    Number(period),
  );
  const days = Number(period);
  const caption = `Credits received, handed down and consumed per day in ${organization.name} and below, last ${days} days.`;

  return (
    <Stack gap="sm" component="section" aria-labelledby="credit-use-heading">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2} style={{ flex: '1 1 360px' }}>
          <Title order={2} fz="h4" id="credit-use-heading">
            Credit use
          </Title>
          <Text size="sm" c="dimmed">
            Credits that came into {organization.name} and the organizations below it, were handed down to
            organizations and people, and were consumed by the classroom product, per day (UTC).
          </Text>
        </Stack>
        <SegmentedControl aria-label="Period" value={period} onChange={setPeriod} data={PERIODS} size="sm" />
      </Group>
      <Card>
        {isPending ? (
          <Stack gap="md" role="status" aria-busy="true" aria-label="Loading the credit use">
            <Group gap="xl">
              <Skeleton height={44} width={180} />
              <Skeleton height={44} width={320} />
            </Group>
            <Skeleton height={260} />
          </Stack>
        ) : isError && !data ? (
          <LoadError
            title="The credit use could not be loaded"
            error={error}
            onRetry={() => void refetch()}
            retrying={isRefetching}
          />
        ) : (
          <Stack
            gap="md"
            aria-busy={isPlaceholderData || undefined}
            style={{ opacity: isPlaceholderData ? 0.6 : 1 }}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              <Figure
                label="Consumption"
                value={burnRateText(data.forecast)}
                hint="Today is left out until it is over."
              />
              <Figure label="Forecast" value={forecastText(data.forecast, organization.name)} />
            </SimpleGrid>
            <SimpleGrid cols={3} spacing="lg" aria-label={`Totals over ${days} days`}>
              {SERIES.map((s) => (
                <Text key={s.name} size="sm">
                  <Text span c="dimmed" inherit>
                    {s.label}:{' '}
                  </Text>
                  <Text span fw={600} inherit style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatCount(totals(data.days)[s.name])}
                  </Text>
                </Text>
              ))}
            </SimpleGrid>
            {asTable ? (
              <UsageTable usage={data} caption={caption} />
            ) : (
              <Stack gap="md">
                <UsageChart
                  days={data.days}
                  series={CONSUMPTION}
                  height={200}
                  title="Consumed per day"
                  description={`Credits consumed per day in ${organization.name} and below, last ${days} days.`}
                />
                <UsageChart
                  days={data.days}
                  series={MOVES}
                  height={160}
                  title="Received and handed down per day"
                  description={`Credits received by ${organization.name} and below, and handed down inside it, per day, last ${days} days.`}
                />
              </Stack>
            )}
            <Group justify="flex-end">
              <Button
                variant="subtle"
                size="xs"
                leftSection={
                  asTable ? (
                    <IconChartBar size={16} aria-hidden="true" />
                  ) : (
                    <IconTable size={16} aria-hidden="true" />
                  )
                }
                onClick={() => setAsTable((v) => !v)}
              >
                {asTable ? 'Show as chart' : 'Show as table'}
              </Button>
            </Group>
          </Stack>
        )}
      </Card>
    </Stack>
  );
}
