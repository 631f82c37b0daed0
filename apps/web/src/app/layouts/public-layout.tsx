import { Box, Container, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Brand } from '../../components/brand';
import { AccountLink } from '../../features/auth/components/account-link';
import { SignOutButton } from '../../features/auth/components/sign-out-button';
import { MailNotSentBanner } from '../../features/mail/components/mail-not-sent-banner';
import { PriceListLink } from '../../features/price-list/components/price-list-link';
import { AppFooter } from '../../features/public-config/components/app-footer';
import { useSession } from '../../lib/session';
import classes from './public-layout.module.css';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

/** Sign-in, the password screens and the organization picker: header, centred content, footer. */
export function PublicLayout() {
  const { signedIn } = useSession();
  return (
    <Box className={classes.root}>
      <SkipLink />
      <Box component="header" className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between">
            <Link to="/" className={classes.brandLink} aria-label="Allot home">
              <Brand />
            </Link>
            {signedIn && (
              <Group gap="xs" wrap="nowrap">
                <PriceListLink />
                <AccountLink />
                <SignOutButton />
              </Group>
            )}
          </Group>
        </Container>
      </Box>
      <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
        {signedIn && <MailNotSentBanner contained />}
        <Outlet />
      </Box>
      <Box component="footer" className={classes.footer}>
        <Container size="lg" px={0}>
          <AppFooter />
        </Container>
      </Box>
    </Box>
  );
}
