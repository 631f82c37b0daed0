import { Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCount } from '../../../lib/format';

interface CreditPoolCardProps {
  label: string;
  value: number;
  hint: string;
  icon: ReactNode;
}

export function CreditPoolCard({ label, value, hint, icon }: CreditPoolCardProps) {
  return (
    <Card component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          <Text fz={28} fw={700} lh={1.2}>
            {formatCount(value)}
          </Text>
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        </Stack>
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden="true">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}
