/** The footer's links (spec §2: help, contact, terms, privacy, FAQ, cookies) and where each address comes from. */
const FOOTER_LINK_SOURCES = [
  { label: 'Help', variable: 'VITE_HELP_URL' },
  { label: 'Contact', variable: 'VITE_CONTACT_URL' },
  { label: 'Terms', variable: 'VITE_TERMS_URL' },
  { label: 'Privacy', variable: 'VITE_PRIVACY_URL' },
  { label: 'FAQ', variable: 'VITE_FAQ_URL' },
  { label: 'Cookies', variable: 'VITE_COOKIES_URL' },
] as const;

export interface FooterLink {
  label: string;
  href: string;
}

/**
 * The footer links whose address the build environment configures (VITE_*_URL), in the spec's order. A link
 * without an address is left out rather than pointing nowhere (`#help`); none configured, none shown.
 */
export function footerLinks(env: Partial<Record<string, string | undefined>>): FooterLink[] {
  return FOOTER_LINK_SOURCES.map(({ label, variable }) => ({
    label,
    href: env[variable]?.trim() ?? '',
  })).filter((link) => link.href !== '');
}
