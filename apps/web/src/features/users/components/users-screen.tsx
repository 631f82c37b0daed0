import { IconUsers } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/coming-soon-page';

export function UsersScreen() {
  return (
    <ComingSoonPage
      title="Users"
      icon={<IconUsers />}
      description="Listing, adding, importing and editing the users of this organization arrive in a coming release."
    />
  );
}
