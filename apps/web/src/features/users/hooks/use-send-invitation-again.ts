import { notifications } from '@mantine/notifications';
import { errorText } from '../../../lib/api-error';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { useResendInvitation } from '../api/resend-invitation';

/**
 * Sends a pending person's invitation again and says how it went in a notification ("Invitation sent to
 * {email}", "Invitation queued for {email}" where no mail is delivered, or the server's sentence in red). Used by the row menu and the product access panel. Answers
 * whether it was sent.
 */
export function useSendInvitationAgain() {
  const resend = useResendInvitation();
  const words = useMailWords();

  async function send(organizationId: string, person: { id: string; email: string }): Promise<boolean> {
    try {
      await resend.mutateAsync({ organizationId, userId: person.id });
      notifications.show({ color: 'green', ...words.resent(person.email) });
      return true;
    } catch (cause) {
      notifications.show({ color: 'red', title: 'The invitation was not sent', message: errorText(cause) });
      return false;
    }
  }

  return { send, sending: resend.isPending };
}
