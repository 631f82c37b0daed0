import { NotAvailableCard } from '../../components/not-available-card';

export function RegisterVerifyRoute() {
  return (
    <NotAvailableCard
      title="Verify your email"
      description="Verifying an invitation from this panel arrives in a coming release. Your invitation stays valid; keep the email you received."
    />
  );
}
