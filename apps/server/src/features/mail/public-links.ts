/** What sending account mail needs: the address the panel is reached at (PUBLIC_URL), and its limits. */
export interface MailSettings {
  publicUrl: string;
  /** Invitations one organization may send in a day (INVITATIONS_PER_DAY; a default when unset). */
  invitationsPerDay?: number;
  /** Invoice mails one organization may send in a day to addresses outside it (INVOICE_MAILS_PER_DAY). */
  invoiceMailsPerDay?: number;
}

export function publicLink(settings: MailSettings, path: string, query?: Record<string, string>): string {
  const qs = query ? `?${new URLSearchParams(query).toString()}` : '';
  return `${settings.publicUrl.replace(/\/$/, '')}${path}${qs}`;
}
