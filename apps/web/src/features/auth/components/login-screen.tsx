import type { LoginRequest } from '@allot/domain/auth';
import { Card, Center, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '../../../lib/query-client';
import { setSession } from '../../../lib/session';
import { organizationsQueryOptions } from '../../organizations/api/get-organizations';
import { login } from '../api/login';
import { LoginForm } from './login-form';
import { signInErrorMessage } from './sign-in-error';

export function LoginScreen() {
  useDocumentTitle('Sign in · Allot');
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(values: LoginRequest) {
    setError(null);
    let answer: Awaited<ReturnType<typeof login>>;
    try {
      answer = await login(values);
    } catch (cause) {
      setError(signInErrorMessage(cause));
      return;
    }
    queryClient.clear();
    setSession({
      secToken: answer.secToken,
      userId: answer.userId,
      userEmail: answer.userEmail,
      role: answer.role,
      permissions: [],
    });
    // One organization: straight into it (spec §4). Otherwise, or if the list fails, the picker shows it.
    try {
      const organizations = await queryClient.fetchQuery(organizationsQueryOptions());
      const only = organizations.length === 1 ? organizations[0] : undefined;
      await navigate(only ? `/${encodeURIComponent(only.id)}` : '/', { replace: true });
    } catch {
      await navigate('/', { replace: true });
    }
  }

  return (
    <Center flex={1} p="md">
      <Card w="100%" maw={400} shadow="sm" padding="xl">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz="h2">
              Sign in
            </Title>
            <Text size="sm" c="dimmed">
              Manage licences and credits for your organizations.
            </Text>
          </Stack>
          <LoginForm onSubmit={handleSubmit} error={error} />
        </Stack>
      </Card>
    </Center>
  );
}
