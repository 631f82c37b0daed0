import { IconListDetails } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/coming-soon-page';

export function CreditLogScreen() {
  return (
    <ComingSoonPage
      title="Credit log"
      icon={<IconListDetails />}
      description="The history of credit moves for this organization arrives in a coming release."
    />
  );
}
