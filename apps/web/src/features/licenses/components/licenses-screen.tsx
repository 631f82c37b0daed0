import { IconCertificate } from '@tabler/icons-react';
import { ComingSoonPage } from '../../../components/coming-soon-page';

export function LicensesScreen() {
  return (
    <ComingSoonPage
      title="Licenses"
      icon={<IconCertificate />}
      description="Licence usage, extending and adding seats, and the invoice list arrive in a coming release."
    />
  );
}
