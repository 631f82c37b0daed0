import { Alert, Button, Center, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAlertCircle, IconBuildingOff } from '@tabler/icons-react';
import { Link, useRevalidator, useRouteError } from 'react-router';
import { isApiError } from '../../../lib/api-error';
import { PICKER_STATE } from '../../../lib/home-link';

/** Shown when the organization of the URL could not be loaded: unknown (404) or a real failure. */
export function OrganizationError() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const notFound = isApiError(error) && (error.status === 404 || error.status === 403);
  useDocumentTitle(notFound ? 'Organization not found · Allot' : 'Error · Allot');

  if (notFound) {
    return (
      <Center mih="100vh" p="md">
        <EmptyState
          icon={<IconBuildingOff />}
          title="Organization not found"
          description="This organization does not exist, or you do not have access to it."
          variant="light"
        >
          <Button component={Link} to="/" state={PICKER_STATE} mt="md">
            Go home
          </Button>
        </EmptyState>
      </Center>
    );
  }

  return (
    <Center mih="100vh" p="md">
      <Stack maw={480} w="100%">
        <Title order={1} fz="h3">
          The organization could not be loaded
        </Title>
        <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />}>
          <Text size="sm">
            {isApiError(error) ? error.message : 'Something went wrong, please try again later.'}
          </Text>
        </Alert>
        <Group>
          <Button loading={revalidator.state === 'loading'} onClick={() => void revalidator.revalidate()}>
            Retry
          </Button>
          <Button component={Link} to="/" state={PICKER_STATE} variant="default">
            Go home
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
