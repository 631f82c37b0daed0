import { Anchor, Group, Text } from '@mantine/core';
import { footerLinks } from './footer-links';

/** The footer links the build configures (footer-links.ts): none configured, only the © line. */
export const FOOTER_LINKS = footerLinks(import.meta.env as unknown as Record<string, string | undefined>);

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
