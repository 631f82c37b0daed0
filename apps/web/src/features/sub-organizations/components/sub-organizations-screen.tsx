import { IconBuildingCommunity } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/coming-soon-page';

export function SubOrganizationsScreen() {
  return (
    <ComingSoonPage
      title="Sub organizations"
      icon={<IconBuildingCommunity />}
      description="Managing sub-organizations and moving credits and licences between them arrive in a coming release."
    />
  );
}
