import { Anchor, Group, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { usePublicConfig } from '../api/get-public-config';
import { type FooterLink, footerLinks } from '../footer-links';
import classes from './app-footer.module.css';

function FooterAnchor({ link }: { link: FooterLink }) {
  if (link.kind === 'page') {
    return (
      <Anchor component={Link} to={link.href} size="xs" c="dimmed" className={classes.link}>
        {link.label}
      </Anchor>
    );
  }
  if (link.kind === 'mail') {
    return (
      <Anchor href={link.href} size="xs" c="dimmed" className={classes.link}>
        {link.label}
      </Anchor>
    );
  }
  return (
    <Anchor
      href={link.href}
      target="_blank"
      rel="noopener noreferrer"
      size="xs"
      c="dimmed"
      className={classes.link}
    >
      {link.label}
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </Anchor>
  );
}

/** The spec's footer (§2): the © line and its six links, on every screen, signed in or not (issue 36). */
export function AppFooter() {
  const { data } = usePublicConfig();
  return (
    <Group justify="space-between" gap="xs" px="md" py="xs" wrap="wrap">
      <Text size="xs" c="dimmed">
        © {new Date().getFullYear()} Allot
      </Text>
      <nav aria-label="Footer">
        <Group component="ul" gap="md" wrap="wrap" m={0} p={0} className={classes.list}>
          {footerLinks(data).map((link) => (
            <li key={link.label}>
              <FooterAnchor link={link} />
            </li>
          ))}
        </Group>
      </nav>
    </Group>
  );
}
