import { describe, expect, test } from 'vitest';
import { footerLinks } from './footer-links';

describe('footer links', () => {
  test('none configured: no link at all (the footer keeps only its © line)', () => {
    expect(footerLinks({})).toEqual([]);
    expect(footerLinks({ VITE_HELP_URL: '', VITE_TERMS_URL: '   ' })).toEqual([]);
  });

  test('only the configured ones, in the order of the spec, with their addresses', () => {
    expect(
      footerLinks({
        VITE_PRIVACY_URL: 'https://allot.example/privacy',
        VITE_HELP_URL: ' https://help.allot.example ',
        VITE_FAQ_URL: '',
      }),
    ).toEqual([
      { label: 'Help', href: 'https://help.allot.example' },
      { label: 'Privacy', href: 'https://allot.example/privacy' },
    ]);
  });

  test('all six configured: all six', () => {
    const env = Object.fromEntries(
      ['HELP', 'CONTACT', 'TERMS', 'PRIVACY', 'FAQ', 'COOKIES'].map((name) => [
        `VITE_${name}_URL`,
        `/${name}`,
      ]),
    );
    expect(footerLinks(env).map((link) => link.label)).toEqual([
      'Help',
      'Contact',
      'Terms',
      'Privacy',
      'FAQ',
      'Cookies',
    ]);
  });
});
