import type { Organization } from '@allot/domain/organizations';
import { ROLE_LABEL } from '@allot/domain/roles';
import { Anchor, Card, Group, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { BreakableEmail } from '../../../components/breakable-email';
import { LoadError } from '../../../components/load-error';
import { useAbove } from '../api/get-above';
import { useRequestRights } from '../hooks/use-request-rights';
import { AskAboveButton } from './ask-above-button';

/**
 * "Managed above by" on General information (CONTRACT §11): the organization directly above and its owners
 * and admins, with their addresses, so that a school admin knows whom a request reaches and whom to write to.
 * For those who manage an organization that has one above.
 */
export function ManagedAboveCard({ organization }: { organization: Organization }) {
  const rights = useRequestRights(organization);
  const shown = rights.manages && organization.parentOrganizationId !== null;
  const { data: above, isPending, isError, error, refetch, isRefetching } = useAbove(organization.id, shown);
  if (!shown) return null;

  return (
    <Card component="section" aria-labelledby="managed-above-heading">
      <Group justify="space-between" align="center" mb="sm" gap="sm">
        <Title order={2} fz="h4" id="managed-above-heading">
          Managed above by
        </Title>
        {rights.mayAsk && (
          <AskAboveButton
            organization={organization}
            variant="default"
            size="sm"
            label={() => 'Ask for credits or seats'}
          />
        )}
      </Group>
      {isPending ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading who manages it above">
          <Skeleton height={18} width="40%" />
          <Skeleton height={18} width="70%" />
        </Stack>
      ) : isError ? (
        <LoadError
          title="Who manages it above could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : above.parent === null ? null : (
        <Stack gap="xs">
          <Text size="sm">
            <Text span fw={600} inherit>
              {above.parent.name}
            </Text>
            , the organization directly above {organization.name}. Its owners and admins hand down its credits
            and seats, and answer its requests.
          </Text>
          {above.managers.length === 0 ? (
            <Text size="sm" c="dimmed">
              {above.parent.name} has no owner or admin yet.
            </Text>
          ) : (
            <List
              size="sm"
              spacing={4}
              listStyleType="none"
              aria-label={`Owners and admins of ${above.parent.name}`}
            >
              {above.managers.map((manager) => (
                <List.Item key={manager.email} style={{ overflowWrap: 'break-word' }}>
                  <Text span fw={500} inherit>
                    {manager.name || manager.email}
                  </Text>{' '}
                  <Text span c="dimmed" inherit>
                    ({ROLE_LABEL[manager.role]})
                  </Text>{' '}
                  <Anchor href={`mailto:${manager.email}`} inherit>
                    <BreakableEmail email={manager.email} />
                  </Anchor>
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      )}
    </Card>
  );
}
