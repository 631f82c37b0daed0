import { Text } from '@mantine/core';
import { DoneCard } from './done-card';

/**
 * The end of a teacher's invitation (issue 33): what they did is all there is to do. Teachers have no panel
 * access (CONTRACT §2), so no "Sign in" that would only refuse them: they sign in to the classroom product.
 */
export function TeacherDoneCard({ title, done }: { title: string; done: string }) {
  return (
    <DoneCard title={title}>
      <Text size="sm">{done}</Text>
      <Text size="sm">
        Your school’s licence for the classroom product and your AI credits now reach you there: sign in to
        the classroom product as usual.
      </Text>
      <Text size="sm" c="dimmed">
        There is nothing else to do here, and nothing to sign in to: Allot’s pages are for your school’s
        admins. You can close this page.
      </Text>
    </DoneCard>
  );
}
