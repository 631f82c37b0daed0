import { Alert, Text } from '@mantine/core';
import { IconCrown } from '@tabler/icons-react';

interface OwnerChangeNoticeProps {
  organizationName: string;
  /** The owner today (the organization's admin name); null when it has none. */
  currentOwner: string | null;
  /** Who becomes owner; absent while adding a user not yet named. */
  newOwner?: string;
}

/** What making someone owner does (CONTRACT §2): one owner per organization, the current one becomes an admin. */
export function OwnerChangeNotice({ organizationName, currentOwner, newOwner }: OwnerChangeNoticeProps) {
  return (
    <Alert variant="light" color="orange" icon={<IconCrown aria-hidden="true" />} title="Ownership moves">
      <Text size="sm">
        {newOwner ? (
          <>
            <Text span fw={600} inherit>
              {newOwner}
            </Text>{' '}
            becomes the owner of {organizationName}.
          </>
        ) : (
          <>This person becomes the owner of {organizationName}.</>
        )}{' '}
        {currentOwner ? (
          <>
            The current owner,{' '}
            <Text span fw={600} inherit>
              {currentOwner}
            </Text>
            , becomes an admin.
          </>
        ) : (
          'An organization has one owner.'
        )}
      </Text>
    </Alert>
  );
}
