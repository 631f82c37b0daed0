import { PUBLIC_CONFIG_VARIABLES, type PublicConfig } from '@allot/domain/public-config';
import {
  Anchor,
  Code,
  Container,
  Skeleton,
  Stack,
  Text,
  Title,
  Typography,
  VisuallyHidden,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { usePublicConfig } from '../api/get-public-config';
import { FOOTER_PAGES } from '../footer-links';

type Published = 'contact' | 'terms' | 'privacy';

const PAGES: Record<
  Published,
  { title: string; setting: keyof PublicConfig; what: string; value: string; after: string; at: string }
> = {
  contact: {
    title: 'Contact',
    setting: 'supportEmail',
    what: 'a support address',
    value: 'the address people should write to, for example help@your-district.org',
    after: 'Contact in the footer then opens a new mail to that address.',
    at: 'Write to the people who run this installation at',
  },
  terms: {
    title: 'Terms of use',
    setting: 'termsUrl',
    what: 'its terms of use',
    value: 'the address of the terms, starting with https:// (or http://)',
    after: 'Terms in the footer then leads there.',
    at: 'The terms of use of this installation are published at',
  },
  privacy: {
    title: 'Privacy',
    setting: 'privacyUrl',
    what: 'its privacy notice',
    value: 'the address of the privacy notice, starting with https:// (or http://)',
    after: 'Privacy in the footer then leads there.',
    at: 'The privacy notice of this installation is published at',
  },
};

function Published({ which, value }: { which: Published; value: string }) {
  if (which === 'contact') {
    return (
      <Text>
        {PAGES.contact.at}{' '}
        <Anchor href={`mailto:${value}`} style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Anchor>
        .
      </Text>
    );
  }
  return (
    <Text>
      {PAGES[which].at}{' '}
      <Anchor href={value} target="_blank" rel="noopener noreferrer" style={{ overflowWrap: 'anywhere' }}>
        {value}
        <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
      </Anchor>
      .
    </Text>
  );
}

function NotPublished({ which }: { which: Published }) {
  const page = PAGES[which];
  const variable = PUBLIC_CONFIG_VARIABLES[page.setting];
  return (
    <Typography>
      <p>
        <strong>The operator of this Allot installation has not published {page.what} yet.</strong>
      </p>
      {which === 'contact' && (
        <p>
          Until it does, the owner or an admin of your organization is the first person to ask. The{' '}
          <Anchor component={Link} to={FOOTER_PAGES.help}>
            Help
          </Anchor>{' '}
          and{' '}
          <Anchor component={Link} to={FOOTER_PAGES.faq}>
            FAQ
          </Anchor>{' '}
          pages explain the panel.
        </p>
      )}
      {which === 'privacy' && (
        <p>
          What the panel itself keeps in your browser is on the{' '}
          <Anchor component={Link} to={FOOTER_PAGES.cookies}>
            Cookies
          </Anchor>{' '}
          page.
        </p>
      )}
      <p>
        If you run this installation: set <Code>{variable}</Code> in the server’s environment to {page.value},
        and restart the server. {page.after} The web app is not built again: the server reads the setting when
        it starts.
      </p>
    </Typography>
  );
}

/** Contact, Terms and Privacy (issue 36): where the operator published them, or that they are not yet. */
export function PublishedPage({ which }: { which: Published }) {
  const page = PAGES[which];
  useDocumentTitle(`${page.title} · Allot`);
  const { data, isPending, isError, error, refetch, isRefetching } = usePublicConfig();
  const value = data?.[page.setting] ?? null;
  return (
    <Container size="md" w="100%" py="xl">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {page.title}
        </Title>
        {isPending ? (
          <Stack gap="xs" role="status" aria-busy="true" aria-label={`Loading ${page.title}`}>
            <Skeleton h={16} w="80%" />
            <Skeleton h={16} w="60%" />
          </Stack>
        ) : isError ? (
          <LoadError
            title="This page could not be loaded"
            error={error}
            onRetry={() => void refetch()}
            retrying={isRefetching}
          />
        ) : value ? (
          <Published which={which} value={value} />
        ) : (
          <NotPublished which={which} />
        )}
      </Stack>
    </Container>
  );
}

export const ContactPage = () => <PublishedPage which="contact" />;
export const TermsPage = () => <PublishedPage which="terms" />;
export const PrivacyPage = () => <PublishedPage which="privacy" />;
