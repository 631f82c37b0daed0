/** A person in the users list of an organization (the list filtered to their email), where the panel acts on them. */
export function personPath(organizationId: string, email: string): string {
  return `/${encodeURIComponent(organizationId)}/users?q=${encodeURIComponent(email)}`;
}
