import { Anchor, Group, Text } from '@mantine/core';

const env = import.meta.env;

/**
 * The footer links of spec §2. Their addresses come from the build environment (VITE_*_URL): a link
 * whose address is not configured is left out rather than pointing nowhere, and with none configured the
 * footer is only the © line.
 */
export const FOOTER_LINKS = [
  { label: 'Help', href: env.VITE_HELP_URL },
  { label: 'Contact', href: env.VITE_CONTACT_URL },
  { label: 'Terms', href: env.VITE_TERMS_URL },
  { label: 'Privacy', href: env.VITE_PRIVACY_URL },
  { label: 'FAQ', href: env.VITE_FAQ_URL },
  { label: 'Cookies', href: env.VITE_COOKIES_URL },
]
  .map((link) => ({ label: link.label, href: link.href?.trim() ?? '' }))
  .filter((link) => link.href !== '');

function isExternal(href: string): boolean {
  return /^https?:\/\//.test(href);
}

export function AppFooter() {
  return (
    <Group justify="space-between" gap="xs" px="md" py="xs" wrap="wrap">
      <Text size="xs" c="dimmed">
        © {new Date().getFullYear()} Allot
      </Text>
      {FOOTER_LINKS.length > 0 && (
        <nav aria-label="Footer">
          <Group component="ul" gap="md" wrap="wrap" m={0} p={0} style={{ listStyle: 'none' }}>
            {FOOTER_LINKS.map((link) => (
              <li key={link.label}>
                <Anchor
                  href={link.href}
                  size="xs"
                  c="dimmed"
                  {...(isExternal(link.href) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                >
                  {link.label}
                </Anchor>
              </li>
            ))}
          </Group>
        </nav>
      )}
    </Group>
  );
}
