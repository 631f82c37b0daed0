import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorText, isApiError } from '../../../lib/api-error';
import { formatCountOf } from '../../../lib/format';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { resendInvitation } from '../api/resend-invitation';

/**
 * Sends the pending invitations of several people again (issue 33), one call a person through the same
 * endpoint as the row menu, one after the other: the server limits resends per session and per person
 * (`429`), and once it says "too many" the rest would be refused too, so the sending stops there. One
 * notification sums it up: "Invitations sent again to N people", and who was not reached, in the server's
 * words. Answers how many were sent.
 */
export function useSendInvitationsAgain() {
  const [sending, setSending] = useState(false);
  const words = useMailWords();

  /** Each person's invitation to their own organization (the list of everyone below mixes several). */
  async function sendAll(people: readonly { id: string; email: string; organizationId: string }[]) {
    setSending(true);
    let sent = 0;
    let failure: unknown;
    let failed = 0;
    try {
      for (const person of people) {
        try {
          await resendInvitation({ organizationId: person.organizationId, userId: person.id });
          sent += 1;
        } catch (cause) {
          failure ??= cause;
          failed += 1;
          if (isApiError(cause) && cause.status === 429) {
            failed = people.length - sent;
            break;
          }
        }
      }
    } finally {
      setSending(false);
    }
    const done = words.resentMany(formatCountOf(sent, 'person', 'people'));
    const summary = done.message;
    if (failed === 0) {
      notifications.show({ color: 'green', ...done });
    } else {
      notifications.show({
        color: sent === 0 ? 'red' : 'orange',
        title: sent === 0 ? 'The invitations were not sent' : 'Some invitations were not sent',
        message: `${sent > 0 ? `${summary} ` : ''}Not sent to ${formatCountOf(failed, 'person', 'people')}: ${errorText(failure)}`,
      });
    }
    return sent;
  }

  return { sendAll, sending };
}
