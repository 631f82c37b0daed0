import { CODE_MINUTES } from '@allot/domain/auth';
import type { MailDelivery } from '@allot/domain/mail';
import { formatCountOf } from '../../lib/format';
import { useMailDelivery } from './api/get-mail-delivery';

/** Why nothing arrives, where a screen says a mail is queued: the same sentence everywhere. */
export const NOT_DELIVERED =
  'This installation sends no mail: a system admin finds it in the mail outbox and can pass the code on.';

/**
 * What the screens say about a mail they just had queued (issue 33): "sent" only where this installation
 * delivers mail (`smtp`); without SMTP_URL every mail waits in the outbox, and the screens say "queued" and
 * who can read it. Until the server has answered, "queued": it is true either way (every mail is queued first).
 */
export function mailWords(delivery: MailDelivery | undefined) {
  const sent = delivery === 'smtp';
  return {
    /** True when nothing is delivered. */
    queued: !sent,
    /** Add user's notice: the person was added, invited. */
    userAdded: (name: string) =>
      sent
        ? `${name} was added and invited by email.`
        : `${name} was added. Their invitation is queued. ${NOT_DELIVERED}`,
    /** Add user's note before saving. */
    addUserNote: (organization: string) =>
      sent
        ? `The person receives an invitation email to ${organization} with a code to set their password.`
        : `An invitation to ${organization}, with a code to set a password, is queued for the person. ${NOT_DELIVERED}`,
    /** An import's result: how many were invited. */
    imported: (count: number) =>
      sent
        ? `${formatCountOf(count, 'user was', 'users were')} invited by email`
        : `${formatCountOf(count, 'user was', 'users were')} added; their invitations are queued, not sent`,
    /** An import's preview: what happens to everyone in it. */
    importNote: sent
      ? 'Everyone in this list will be invited by email and holds a seat from now on; they join when they accept the invitation.'
      : `Everyone in this list holds a seat from now on and joins when they accept the invitation; the invitations are queued, not sent. ${NOT_DELIVERED}`,
    /** A new organization's owner. */
    ownerNote: sent
      ? 'They become the owner of the new organization and get an invitation by email to join it; someone without an account sets a password from that email.'
      : `They become the owner of the new organization once they accept an invitation to join it (someone without an account sets a password with its code); it is queued, not sent. ${NOT_DELIVERED}`,
    /** An invitation sent again: the notice. */
    resent: (email: string) =>
      sent
        ? { title: 'Invitation sent', message: `Invitation sent to ${email}` }
        : {
            title: 'Invitation queued',
            message: `Invitation queued for ${email}, not sent. ${NOT_DELIVERED}`,
          },
    /** A new code asked for on a code screen (verification, invitation): the earlier one works on too. */
    newCode: sent
      ? {
          lead: 'A new code is on its way to',
          rest: `It expires in ${CODE_MINUTES} minutes; a code from an earlier mail works too until it expires.`,
        }
      : {
          lead: 'A new code is queued, not sent, for',
          rest: 'This installation sends no mail: ask the person who invited you, or your Allot system admin, for it. A code from an earlier mail works too until it expires.',
        },
    /** A password reset asked for (the same answer whatever the address). */
    resetAsked: sent
      ? {
          title: 'Check your email',
          lead: 'If an account exists for',
          rest: `, we sent it a 6-digit code and a link to choose a new password. The code expires in ${CODE_MINUTES} minutes.`,
          after: 'Nothing arrived? Check the spam folder, or ask again in a few minutes.',
        }
      : {
          title: 'Your reset code is queued',
          lead: 'If an account exists for',
          rest: `, a mail with a 6-digit code and a link to choose a new password is queued for it, not sent. The code expires in ${CODE_MINUTES} minutes.`,
          after: 'This installation sends no mail: ask your Allot system admin for the link and the code.',
        },
    /** An invoice mailed when it was created. */
    invoiceMailed: (email: string) =>
      sent
        ? `Sent to ${email}.`
        : `Queued for ${email}, not sent: this installation sends no mail. Send the invoice’s page yourself.`,
  };
}

export type MailWords = ReturnType<typeof mailWords>;

/** mailWords for this installation, from GET /api/mail/delivery. */
export function useMailWords(): MailWords {
  return mailWords(useMailDelivery().data?.delivery);
}
