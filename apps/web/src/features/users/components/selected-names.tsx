import { List, Text } from '@mantine/core';

const SHOWN = 5;

/** The first few of the selected users by name, then how many more. */
export function SelectedNames({ users }: { users: readonly { id: string; name: string; email: string }[] }) {
  const more = users.length - SHOWN;
  return (
    <List size="sm" spacing={2} aria-label="Selected users">
      {users.slice(0, SHOWN).map((user) => (
        <List.Item key={user.id}>
          <Text span fw={600} inherit>
            {user.name}
          </Text>{' '}
          <Text span c="dimmed" inherit>
            {user.email}
          </Text>
        </List.Item>
      ))}
      {more > 0 && (
        <List.Item>
          <Text span c="dimmed" inherit>
            and {more} more
          </Text>
        </List.Item>
      )}
    </List>
  );
}
