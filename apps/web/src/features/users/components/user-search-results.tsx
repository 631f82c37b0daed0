import { ROLE_LABEL } from '@allot/domain/roles';
import type { UserSearchItem } from '@allot/domain/users';
import { Anchor, Avatar, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { personPath } from '../../../lib/person-path';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

/**
 * Users found by the Home search, each a link to the person in the users list of their (first) organization,
 * and a link for each of their organizations to them there (issue 33: the link opened General information).
 */
export function UserSearchResults({ users }: { users: UserSearchItem[] }) {
  return (
    <Card p={0}>
      <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Users found">
        {users.map((user, index) => (
          <Group
            component="li"
            key={user.id}
            px="lg"
            py="sm"
            gap="md"
            wrap="nowrap"
            align="flex-start"
            style={index > 0 ? { borderTop: '1px solid var(--mantine-color-gray-2)' } : undefined}
          >
            <Avatar radius="xl" color="indigo" size={36} aria-hidden="true">
              {initials(user.name)}
            </Avatar>
            <Group justify="space-between" align="flex-start" gap="xs" flex={1} miw={0}>
              <Stack gap={0} miw={0}>
                {user.organizations[0] ? (
                  <Anchor
                    component={Link}
                    to={personPath(user.organizations[0].id, user.email)}
                    fw={600}
                    c="inherit"
                    truncate="end"
                  >
                    {user.name}
                  </Anchor>
                ) : (
                  <Text fw={600} truncate="end">
                    {user.name}
                  </Text>
                )}
                <Text size="sm" c="dimmed" truncate="end">
                  {user.email}
                </Text>
              </Stack>
              <Group gap="xs" justify="flex-end" maw={{ base: '100%', sm: '60%' }}>
                {user.organizations.length === 0 && (
                  <Text size="sm" c="dimmed">
                    No organization
                  </Text>
                )}
                {user.organizations.map((organization) => (
                  <Anchor
                    key={organization.id}
                    component={Link}
                    to={personPath(organization.id, user.email)}
                    size="sm"
                    aria-label={`${organization.name} (${ROLE_LABEL[organization.role]} – ${user.name})`}
                  >
                    {organization.name}{' '}
                    <Text span size="xs" c="dimmed">
                      ({ROLE_LABEL[organization.role]})
                    </Text>
                  </Anchor>
                ))}
              </Group>
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
