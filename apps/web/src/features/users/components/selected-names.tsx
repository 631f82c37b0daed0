import { List, type ListProps, Text } from '@mantine/core';

const SHOWN = 5;

/** One entry of a list of names: the name, then a detail in grey (an email, a balance). */
export interface NamedItem {
  id: string;
  name: string;
  detail: string;
}

/** The first few of a selection by name, each with its detail, then how many more. */
export function NameList({ items, ...list }: Omit<ListProps, 'children'> & { items: readonly NamedItem[] }) {
  const more = items.length - SHOWN;
  return (
    <List size="sm" spacing={2} {...list}>
      {items.slice(0, SHOWN).map((item) => (
        <List.Item key={item.id}>
          <Text span fw={600} inherit>
            {item.name}
          </Text>{' '}
          <Text span c="dimmed" inherit>
            {item.detail}
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

/** The first few of the selected users by name, then how many more. */
export function SelectedNames({ users }: { users: readonly { id: string; name: string; email: string }[] }) {
  return (
    <NameList
      aria-label="Selected users"
      items={users.map((user) => ({ id: user.id, name: user.name, detail: user.email }))}
    />
  );
}
