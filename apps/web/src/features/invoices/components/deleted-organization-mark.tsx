import { Text } from '@mantine/core';
import { IconBuildingOff } from '@tabler/icons-react';

/**
 * An invoice of an organization deleted since (decision 010): its invoices stay in the list of the one it was
 * under, each marked with the name it had. The name is what someone typed: text, wrapped where it must.
 */
export function DeletedOrganizationMark({ name }: { name: string }) {
  return (
    <Text size="xs" c="red.9" maw={220} style={{ overflowWrap: 'anywhere' }}>
      <IconBuildingOff size={12} aria-hidden="true" style={{ verticalAlign: '-1px', marginRight: 4 }} />
      Deleted organization: {name}
    </Text>
  );
}
