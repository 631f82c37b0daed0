import { CREDIT_POOL_HINT, CREDIT_POOL_LABEL, CREDIT_POOLS, type CreditPool } from '@allot/domain/credits';
import { Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatCount } from '../../../lib/format';

export interface PoolChoiceProps {
  label: string;
  description?: string;
  value: CreditPool;
  onChange: (pool: CreditPool) => void;
  /** The balances to show on each card; none for "the same pool of each target". */
  balances?: { shared: number; protected: number };
  /** What the balance means here: what may be taken, or what the target holds now. */
  balanceWord?: 'available' | 'now';
}

/** One of the two pools, as two cards with what each is for and their balances (arrow keys move between them). */
export function PoolChoice({
  label,
  description,
  value,
  onChange,
  balances,
  balanceWord = 'available',
}: PoolChoiceProps) {
  return (
    <Radio.Group
      label={label}
      description={description}
      value={value}
      onChange={(next) => onChange(next as CreditPool)}
    >
      <SimpleGrid cols={2} spacing="sm" mt={4}>
        {CREDIT_POOLS.map((pool) => (
          <Radio.Card key={pool} value={pool} px="sm" py={8} radius="md">
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Radio.Indicator mt={2} />
              <Stack gap={0}>
                <Text size="sm" fw={600}>
                  {CREDIT_POOL_LABEL[pool]}
                </Text>
                <Text size="xs" c="dimmed">
                  {CREDIT_POOL_HINT[pool]}
                </Text>
                {balances && (
                  <Text size="xs" c="dimmed">
                    {balanceWord === 'available'
                      ? `${formatCount(balances[pool])} available`
                      : `${formatCount(balances[pool])} now`}
                  </Text>
                )}
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
