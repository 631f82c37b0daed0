import type { IntegrationKey } from '@allot/domain/integration';
import {
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconKey, IconKeyOff, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/load-error';
import { DateCell } from '../../../components/table-cells';
import { useIntegrationKeys } from '../api/get-integration-keys';
import { shownKey } from '../key-text';
import { CreateIntegrationKeyModal } from './create-integration-key-modal';
import { RevokeIntegrationKeyModal } from './revoke-integration-key-modal';

interface IntegrationKeysCardProps {
  organization: { id: string; name: string };
}

/** The organization's integration keys: the list (never a key itself), 'Create key' and 'Revoke' per key. */
export function IntegrationKeysCard({ organization }: IntegrationKeysCardProps) {
  const {
    data: keys,
    isPending,
    isError,
    error,
    refetch,
    isRefetching,
  } = useIntegrationKeys(organization.id);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<IntegrationKey | null>(null);

  const createButton = (
    <Button
      variant="default"
      leftSection={<IconPlus size={16} aria-hidden="true" />}
      onClick={() => setCreating(true)}
    >
      Create key
    </Button>
  );

  return (
    <Card component="section" aria-labelledby="integration-keys-heading">
      <Group justify="space-between" align="center" mb="sm">
        <Stack gap={2}>
          <Title order={3} fz="h5" id="integration-keys-heading">
            Integration keys
          </Title>
          <Text size="sm" c="dimmed">
            Each key lets the classroom product check whether a teacher may use it and spend their credits.
          </Text>
        </Stack>
        {keys && keys.length > 0 && createButton}
      </Group>

      {isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading the integration keys">
          <Skeleton height={28} />
          <Skeleton height={28} />
        </Stack>
      ) : isError ? (
        <LoadError
          title="The integration keys could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : keys.length === 0 ? (
        <EmptyState
          icon={<IconKeyOff />}
          title="No integration keys yet"
          description={`Create a key to connect the classroom product to ${organization.name}.`}
          variant="light"
        >
          <Group mt="md" justify="center">
            {createButton}
          </Group>
        </EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" aria-label="Integration keys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Created by</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th w={110}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <IconKey size={16} aria-hidden="true" style={{ flex: 'none' }} />
                      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {key.name}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Code fz="sm" style={{ whiteSpace: 'nowrap' }}>
                      {shownKey(key.prefix)}
                    </Code>
                  </Table.Td>
                  <Table.Td>
                    {key.createdBy ? (
                      <Text size="sm">{key.createdBy.name}</Text>
                    ) : (
                      // The account that created it no longer exists.
                      <Text size="sm" c="dimmed" fs="italic">
                        Deleted account
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <DateCell iso={key.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    {key.lastUsedAt ? (
                      <DateCell iso={key.lastUsedAt} />
                    ) : (
                      <Text size="sm" c="dimmed">
                        Never
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      aria-label={`Revoke ${key.name}`}
                      onClick={() => setRevoking(key)}
                    >
                      Revoke
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <CreateIntegrationKeyModal
        opened={creating}
        onClose={() => setCreating(false)}
        organization={organization}
      />
      <RevokeIntegrationKeyModal
        integrationKey={revoking}
        organization={organization}
        onClose={() => setRevoking(null)}
      />
    </Card>
  );
}
