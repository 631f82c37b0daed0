import type { OutboxMail } from '@allot/domain/mail';
import { Alert, Badge, Card, Code, Container, Group, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/load-error';
import { PagedSection } from '../../../components/paged-section';
import { formatDateLong } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useMailOutbox } from '../api/get-mail-outbox';

const PAGE_SIZE = 20;
const STATUS_TEXT: Record<OutboxMail['status'], { label: string; color: string }> = {
  pending: { label: 'Waiting', color: 'gray' },
  sent: { label: 'Sent', color: 'teal' },
  logged: { label: 'Not sent', color: 'orange' },
};

/**
 * The mail outbox (issue 33): every mail this installation sent or keeps, newest first, with its text, for
 * system admins. Without SMTP this is where an invitation's or a sign-in's code is read and passed on.
 */
export function MailOutboxScreen() {
  useDocumentTitle('Mail outbox · Allot');
  const session = useSession();
  const systemAdmin = session.role === 'system_admin';
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error, refetch, isRefetching } = useMailOutbox(
    page,
    PAGE_SIZE,
    systemAdmin,
  );
  const pages = data ? Math.max(1, Math.ceil(data.pagination.total / PAGE_SIZE)) : 1;
  return (
    <Container size="md" w="100%" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Mail outbox
          </Title>
          <Text c="dimmed" size="sm">
            Every mail Allot sent or keeps, newest first, with its text, codes and links included.
          </Text>
        </Stack>
        {!systemAdmin ? (
          <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
            Only a system admin reads the mail outbox.
          </Alert>
        ) : isError && !data ? (
          <LoadError
            title="The mail outbox could not be loaded"
            error={error}
            onRetry={() => void refetch()}
            retrying={isRefetching}
          />
        ) : isPending || !data ? (
          <Text c="dimmed" size="sm" role="status">
            Loading the mail outbox…
          </Text>
        ) : (
          <>
            <Alert
              color={data.delivery === 'log' ? 'orange' : 'teal'}
              variant="light"
              title={data.delivery === 'log' ? 'Mail is not sent' : 'Mail is sent'}
            >
              {data.delivery === 'log'
                ? 'This installation has no mail server (SMTP_URL): these mails were not delivered. Pass their codes on yourself, or set SMTP_URL and restart.'
                : 'Mail goes out through the mail server set in SMTP_URL.'}
            </Alert>
            {data.data.length === 0 ? (
              <Text c="dimmed">No mail yet.</Text>
            ) : (
              <PagedSection page={page} total={pages} onChange={setPage} label="Mail outbox pages">
                <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Mails">
                  {data.data.map((mail) => (
                    <Card component="li" key={mail.id} withBorder padding="md">
                      <Stack gap={6}>
                        <Group justify="space-between" gap="xs" wrap="wrap">
                          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                            {mail.subject}
                          </Text>
                          <Badge color={STATUS_TEXT[mail.status].color} variant="light">
                            {STATUS_TEXT[mail.status].label}
                          </Badge>
                        </Group>
                        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          To {mail.to}, {formatDateLong(mail.createdAt)}
                        </Text>
                        <Spoiler maxHeight={72} showLabel="Show all" hideLabel="Show less">
                          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                            {mail.text}
                          </Code>
                        </Spoiler>
                      </Stack>
                    </Card>
                  ))}
                </Stack>
              </PagedSection>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
