import { isWebAddress, type PublicConfig } from '@allot/domain/public-config';

/** The pages of the app that the footer links to (issue 36): always there, configured or not. */
export const FOOTER_PAGES = {
  help: '/help',
  contact: '/contact',
  terms: '/terms',
  privacy: '/privacy',
  faq: '/faq',
  cookies: '/cookies',
} as const;

export interface FooterLink {
  label: string;
  href: string;
  /** page: a route of this app; mail: a mailto: link; external: another site, opened in a new tab. */
  kind: 'page' | 'mail' | 'external';
}

/**
 * The footer's six links, in the spec's order (§2: help, contact, terms, privacy, FAQ, cookies). Contact,
 * Terms and Privacy lead where the operator published them; until then (or while the setting is loading) to
 * the app's own page, which says they are not published yet.
 */
export function footerLinks(config: PublicConfig | undefined): FooterLink[] {
  const page = (label: string, href: string): FooterLink => ({ label, href, kind: 'page' });
  const published = (label: string, url: string | null | undefined, fallback: string): FooterLink =>
    url && isWebAddress(url) ? { label, href: url, kind: 'external' } : page(label, fallback);
  return [
    page('Help', FOOTER_PAGES.help),
    config?.supportEmail
      ? { label: 'Contact', href: `mailto:${config.supportEmail}`, kind: 'mail' }
      : page('Contact', FOOTER_PAGES.contact),
    published('Terms', config?.termsUrl, FOOTER_PAGES.terms),
    published('Privacy', config?.privacyUrl, FOOTER_PAGES.privacy),
    page('FAQ', FOOTER_PAGES.faq),
    page('Cookies', FOOTER_PAGES.cookies),
  ];
}
