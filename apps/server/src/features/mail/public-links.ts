/** What building links in mail needs: the address the panel is reached at (PUBLIC_URL). */
export interface MailSettings {
  publicUrl: string;
}

export function publicLink(settings: MailSettings, path: string, query?: Record<string, string>): string {
  const qs = query ? `?${new URLSearchParams(query).toString()}` : '';
  return `${settings.publicUrl.replace(/\/$/, '')}${path}${qs}`;
}
