import { Stack, Text, Title } from '@mantine/core';
import { DailyLimitCard } from './daily-limit-card';
import { IntegrationKeysCard } from './integration-keys-card';

/**
 * General information's 'Integrations' (issue 15): the keys of the classroom product and the daily limit.
 * Shown only to those who hold manage_org_integration there (owners and system admins).
 */
export function IntegrationsSection({ organization }: { organization: { id: string; name: string } }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="integrations-heading">
      <Stack gap={2}>
        <Title order={2} fz="h4" id="integrations-heading">
          Integrations
        </Title>
        <Text size="sm" c="dimmed">
          The classroom product connects to {organization.name} with a key: it acts for this organization and
          the organizations below it.
        </Text>
      </Stack>
      <IntegrationKeysCard organization={organization} />
      <DailyLimitCard organization={organization} />
    </Stack>
  );
}
