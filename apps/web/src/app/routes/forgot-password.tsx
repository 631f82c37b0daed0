import { NotAvailableCard } from '../../components/not-available-card';

export function ForgotPasswordRoute() {
  return (
    <NotAvailableCard
      title="Reset your password"
      description="Resetting a password from this panel arrives in a coming release. Until then, ask your organization's owner or Allot support for help."
    />
  );
}
