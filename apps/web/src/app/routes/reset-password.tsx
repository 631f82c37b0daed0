import { NotAvailableCard } from '../../components/not-available-card';

export function ResetPasswordRoute() {
  return (
    <NotAvailableCard
      title="Choose a new password"
      description="Entering a reset code and a new password arrives in a coming release. Your current password has not been changed."
    />
  );
}
