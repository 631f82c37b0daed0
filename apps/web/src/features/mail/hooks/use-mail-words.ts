import { CODE_MINUTES } from '@allot/domain/auth';
import type { MailDelivery } from '@allot/domain/mail';
import { formatCountOf } from '../../../lib/format';
import { useMailDelivery } from '../api/get-mail-delivery';

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
    /** Several invitations sent again (the Users selection): the notice. */
    resentMany: (people: string) =>
      sent
        ? { title: 'Invitations sent', message: `Invitations sent again to ${people}.` }
        : {
            title: 'Invitations queued',
            message: `Invitations queued again for ${people}, not sent. ${NOT_DELIVERED}`,
          },
    /** An email change asked for: the code goes to the new address (CONTRACT §3). */
    emailChange: {
      /** The notice once saved. */
      asked: (newEmail: string, oldEmail: string) =>
        sent
          ? {
              title: 'Confirmation sent',
              message: `A code went to ${newEmail}. The email changes when it is entered there; until then ${oldEmail} stays in use.`,
            }
          : {
              title: 'Confirmation queued',
              message: `A code for ${newEmail} is queued, not sent. ${NOT_DELIVERED} The email changes when it is entered; until then ${oldEmail} stays in use.`,
            },
      /** Under the email field. */
      note: sent
        ? 'A new email applies once it is confirmed with the code mailed to it.'
        : 'A new email applies once it is confirmed with a code, queued for it, not sent: a system admin finds it in the mail outbox.',
      /** A change waiting for its code: how it applies. */
      pending: sent
        ? 'It applies when the code mailed there is entered; saving another email replaces it.'
        : 'It applies when its code (queued, not sent: a system admin finds it in the mail outbox) is entered; saving another email replaces it.',
      /** The code page of the new address. */
      codePage: sent
        ? 'Enter the 6-digit code from the email sent to your new address. Until then the account keeps its old one.'
        : 'Enter the 6-digit code of the mail to your new address (this installation sends no mail: ask your Allot system admin for it). Until then the account keeps its old one.',
    },
    /** Low-balance alerts (decision 014): who is told, and how. */
    creditAlerts: {
      intro: (organization: string) =>
        sent
          ? `When a credit move leaves the shared pool of ${organization} at or below a threshold, its owner and each of its admins get one email. A threshold sends once, and again only after the pool has been topped up. A percentage is of what the pool held right after its last top-up.`
          : `When a credit move leaves the shared pool of ${organization} at or below a threshold, an email to its owner and each of its admins is queued, not sent: this installation sends no mail, and a system admin finds it in the mail outbox. A threshold does so once, and again only after the pool has been topped up. A percentage is of what the pool held right after its last top-up.`,
      /** A threshold crossed since the last top-up. */
      fired: sent
        ? 'email sent, again after the next top-up'
        : 'email queued (not sent), again after the next top-up',
      /** The notice once saved. */
      saved: (organization: string, levels: string) =>
        sent
          ? `${organization}: an email at ${levels} in the shared pool.`
          : `${organization}: an alert at ${levels} in the shared pool, its email queued, not sent.`,
    },
    /** Requests up the tree: how the admins above (or the asker) hear of it. */
    request: {
      /** The ask dialog's first line. */
      askNote: (parent: string) =>
        sent
          ? `The owners and admins of ${parent} get a mail and decide. Their answer shows under Requests.`
          : `The owners and admins of ${parent} see it under their Requests and decide (their mail is queued, not sent: this installation sends no mail). Their answer shows under Requests.`,
      /** After asking: how the admins above hear of it. */
      asked: sent
        ? 'Its admins get a mail; their answer shows under Requests.'
        : 'Its admins see it under their Requests (their mail is queued, not sent); their answer shows under Requests.',
      /** After declining: how the asker hears of it. */
      declined: (organization: string) =>
        sent
          ? `${organization} is told why by mail and under Requests.`
          : `${organization} sees why under Requests (the mail is queued, not sent).`,
    },
    /** The password reset's first step. */
    resetIntro: sent
      ? 'Enter the email of your account. We will send you a code and a link to choose a new password.'
      : 'Enter the email of your account. A code and a link to choose a new password are queued for it; this installation sends no mail, so your Allot system admin passes them on.',
    /** The reset link's code step. */
    resetCode: sent
      ? `We emailed you a 6-digit code with this link. It works for ${CODE_MINUTES} minutes.`
      : `The mail with this link holds a 6-digit code (this installation sends no mail: your Allot system admin has it). It works for ${CODE_MINUTES} minutes.`,
    /** Where an invoice goes. */
    invoiceTo: sent
      ? 'The invoice is sent to this address.'
      : 'The invoice is queued for this address, not sent: this installation sends no mail.',
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
