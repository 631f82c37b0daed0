import { UNPUBLISHED } from '@allot/domain/public-config';
import { describe, expect, test } from 'vitest';
import { footerLinks } from './footer-links';

describe('footer links (issue 36)', () => {
  test('nothing configured, or not loaded yet: all six, each a page of the app', () => {
    const expected = [
      { label: 'Help', href: '/help', kind: 'page' },
      { label: 'Contact', href: '/contact', kind: 'page' },
      { label: 'Terms', href: '/terms', kind: 'page' },
      { label: 'Privacy', href: '/privacy', kind: 'page' },
      { label: 'FAQ', href: '/faq', kind: 'page' },
      { label: 'Cookies', href: '/cookies', kind: 'page' },
    ];
    expect(footerLinks(UNPUBLISHED)).toEqual(expected);
    expect(footerLinks(undefined)).toEqual(expected);
  });

  test('configured: Contact mails the support address, Terms and Privacy lead to their addresses', () => {
    const links = footerLinks({
      supportEmail: 'help@district.example',
      termsUrl: 'https://district.example/terms',
      privacyUrl: 'https://district.example/privacy',
    });
    expect(links.map((link) => [link.label, link.href, link.kind])).toEqual([
      ['Help', '/help', 'page'],
      ['Contact', 'mailto:help@district.example', 'mail'],
      ['Terms', 'https://district.example/terms', 'external'],
      ['Privacy', 'https://district.example/privacy', 'external'],
      ['FAQ', '/faq', 'page'],
      ['Cookies', '/cookies', 'page'],
    ]);
  });

  test('an address that is no web address never becomes a link (the page instead)', () => {
    const links = footerLinks({ ...UNPUBLISHED, termsUrl: 'javascript:alert(1)' });
    expect(links.find((link) => link.label === 'Terms')).toEqual({
      label: 'Terms',
      href: '/terms',
      kind: 'page',
    });
  });
});
