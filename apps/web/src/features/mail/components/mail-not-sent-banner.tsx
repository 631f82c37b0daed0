import { Alert, Anchor, Container } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../../lib/session';
import { useMailDelivery } from '../api/get-mail-delivery';

/**
 * To system admins, on every screen, when this installation sends no mail (no `SMTP_URL`: the embedded default,
 * issue 33): invitations, sign-in codes and invoices wait in the mail outbox, which the banner opens. Not on the
 * mail outbox itself: that page says it in its own words, and a link to the page one is on leads nowhere.
 */
export function MailNotSentBanner({ contained = false }: { contained?: boolean }) {
  const session = useSession();
  const systemAdmin = session.role === 'system_admin';
  const { data } = useMailDelivery();
  const { pathname } = useLocation();
  if (!systemAdmin || data?.delivery !== 'log' || pathname === '/mail-outbox') return null;
  const banner = (
    <Alert
      color="orange"
      variant="light"
      icon={<IconMailOff aria-hidden="true" />}
      title="Mail is not sent"
      aria-label="Mail is not sent"
    >
      This installation has no mail server (<code>SMTP_URL</code>): invitations, sign-in codes and invoices
      are not delivered. They wait in the{' '}
      <Anchor component={Link} to="/mail-outbox" inherit>
        mail outbox
      </Anchor>
      , where you can read them and pass the codes on.
    </Alert>
  );
  // Above a page of the public layout, as wide as its header's content.
  return contained ? (
    <Container size="lg" w="100%" pt="md">
      {banner}
    </Container>
  ) : (
    banner
  );
}
