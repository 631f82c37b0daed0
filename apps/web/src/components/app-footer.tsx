import { Anchor, Group, Text } from '@mantine/core';

const env = import.meta.env;

/** The footer links of spec §2; their addresses come from the build environment. */
export const FOOTER_LINKS = [
  { label: 'Help', href: env.VITE_HELP_URL || '#help' },
  { label: 'Contact', href: env.VITE_CONTACT_URL || '#contact' },
  { label: 'Terms', href: env.VITE_TERMS_URL || '#terms' },
  { label: 'Privacy', href: env.VITE_PRIVACY_URL || '#privacy' },
  { label: 'FAQ', href: env.VITE_FAQ_URL || '#faq' },
  { label: 'Cookies', href: env.VITE_COOKIES_URL || '#cookies' },
] as const;

function isExternal(href: string): boolean {
  return /^https?:\/\//.test(href);
}

export function AppFooter() {
  return (
    <Group component="nav" aria-label="Footer" justify="space-between" gap="xs" px="md" py="xs" wrap="wrap">
      <Text size="xs" c="dimmed">
        © {new Date().getFullYear()} Allot
      </Text>
      <Group gap="md" wrap="wrap">
        {FOOTER_LINKS.map((link) => (
          <Anchor
            key={link.label}
            href={link.href}
            size="xs"
            c="dimmed"
            {...(isExternal(link.href) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          >
            {link.label}
          </Anchor>
        ))}
      </Group>
    </Group>
  );
}
