import { CODE_MINUTES } from '@allot/domain/auth';
import { type Mail, type MailContent, renderHtml, renderText } from '../mail';

function mail(kind: string, to: string, subject: string, content: MailContent): Mail {
  return { kind, to, subject, text: renderText(content), html: renderHtml(content) };
}

export function passwordResetMail(input: { to: string; name: string; code: string; link: string }): Mail {
  return mail('password_reset', input.to, 'Your Allot password reset code', {
    greeting: `Hello ${input.name},`,
    intro: ['Someone, hopefully you, asked to reset the password of your Allot account.'],
    code: { label: 'Your reset code', value: input.code },
    action: { label: 'Open this link and enter the code to choose a new password', url: input.link },
    outro: [
      `The code works once and expires in ${CODE_MINUTES} minutes. Resetting the password signs you out everywhere.`,
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ],
  });
}

/**
 * What a teacher is told Allot is to them (issue 33): where their school keeps their licence for the classroom
 * product and the AI credits they spend in it, and that they sign in there, never here (CONTRACT §2: teachers
 * have no panel access).
 */
const TEACHER_SIGN_IN =
  'You sign in to the classroom product as usual, not to Allot: Allot’s pages are for your school’s admins, and there is nothing there for you to sign in to.';

export function invitationMail(input: {
  to: string;
  name: string;
  code: string;
  link: string;
  organizationName: string | null;
  /** The account holds only teacher roles: the mail is written for a teacher, not for an admin of the panel. */
  forTeacher: boolean;
}): Mail {
  const where = input.organizationName ? ` for ${input.organizationName}` : '';
  if (input.forTeacher) {
    const school = input.organizationName ?? 'Your school';
    return mail('invitation', input.to, `You are invited to Allot${where}`, {
      greeting: `Hello ${input.name},`,
      intro: [
        `${school} added you as a teacher. It uses Allot to give its teachers a licence for the classroom product and the AI credits they spend in it; yours are kept for you there.`,
        'To receive them, verify your email with the code below on the page the link opens (you also choose a password for your Allot account). That is all you need to do.',
      ],
      code: { label: 'Your verification code', value: input.code },
      action: { label: 'Open this link to enter the code', url: input.link },
      outro: [
        TEACHER_SIGN_IN,
        `The code expires in ${CODE_MINUTES} minutes. When it has expired, the same page sends you a new one.`,
        'If you did not expect this, you can ignore this email.',
      ],
    });
  }
  return mail('invitation', input.to, `You are invited to Allot${where}`, {
    greeting: `Hello ${input.name},`,
    intro: [
      `An account was created for you on Allot, the panel for licences and AI credits${where}.`,
      'To finish it, verify your email with the code below and choose your password.',
    ],
    code: { label: 'Your verification code', value: input.code },
    action: { label: 'Open this link to enter the code', url: input.link },
    outro: [
      `The code expires in ${CODE_MINUTES} minutes. When it has expired, the same page sends you a new one.`,
      'If you did not expect this invitation, you can ignore this email.',
    ],
  });
}

export function verificationMail(input: {
  to: string;
  name: string;
  code: string;
  link: string;
  needsPassword: boolean;
  /** The account holds only teacher roles. */
  forTeacher: boolean;
}): Mail {
  const verify = input.needsPassword
    ? 'Here is a new code to verify your email and choose the password of your Allot account.'
    : 'Here is a new code to verify the email of your Allot account.';
  return mail('verification', input.to, 'Your Allot verification code', {
    greeting: `Hello ${input.name},`,
    intro: input.forTeacher
      ? [
          verify,
          'Once it is verified, your school’s licence for the classroom product and your AI credits reach you there.',
        ]
      : [verify],
    code: { label: 'Your verification code', value: input.code },
    action: { label: 'Open this link to enter the code', url: input.link },
    outro: [
      ...(input.forTeacher ? [TEACHER_SIGN_IN] : []),
      `The code expires in ${CODE_MINUTES} minutes.`,
      'If you did not ask for this, you can ignore this email.',
    ],
  });
}

/** An account that already existed is offered a membership (CONTRACT §3): it joins only with this code. */
export function membershipInvitationMail(input: {
  to: string;
  name: string;
  inviterName: string;
  organizationName: string;
  roleLabel: string;
  code: string;
  link: string;
  /** Invited as a teacher by an account that holds only teacher roles. */
  forTeacher: boolean;
}): Mail {
  return mail('membership_invitation', input.to, `Join ${input.organizationName} on Allot`, {
    greeting: `Hello ${input.name},`,
    intro: input.forTeacher
      ? [
          `${input.inviterName} invited you to join ${input.organizationName} as a teacher. ${input.organizationName} uses Allot to give its teachers a licence for the classroom product and the AI credits they spend in it.`,
          'Nothing changes until you accept: enter the code below on the page the link opens. That is all you need to do.',
        ]
      : [
          `${input.inviterName} invited your Allot account to join ${input.organizationName} as ${input.roleLabel}.`,
          'Nothing changes until you accept: enter the code below on the page the link opens.',
        ],
    code: { label: 'Your invitation code', value: input.code },
    action: { label: 'Open this link to accept the invitation', url: input.link },
    outro: [
      ...(input.forTeacher ? [TEACHER_SIGN_IN] : []),
      `The code expires in ${CODE_MINUTES} minutes; the same page sends you a new one. The invitation itself stays open until you accept it or it is cancelled.`,
      'If you do not know this organization, ignore this email: you will not be added.',
    ],
  });
}

/** The code of an email change, to the new address: the change applies only when it is entered. */
export function emailChangeCodeMail(input: { to: string; name: string; code: string; link: string }): Mail {
  return mail('email_change', input.to, 'Confirm the new email of your Allot account', {
    greeting: `Hello ${input.name},`,
    intro: [
      `Someone asked to make ${input.to} the email of your Allot account. It changes only when you enter this code.`,
    ],
    code: { label: 'Your confirmation code', value: input.code },
    action: { label: 'Open this link and enter the code to confirm the change', url: input.link },
    outro: [
      `The code works once and expires in ${CODE_MINUTES} minutes. Confirming signs the account out everywhere else.`,
      'If you did not expect this, ignore this email: the account keeps its address.',
    ],
  });
}

/** The notice to the old address: a change was asked for; nothing happens unless the new address confirms. */
export function emailChangeNoticeMail(input: {
  to: string;
  name: string;
  newEmail: string;
  requestedBy: string;
}): Mail {
  return mail('email_change_notice', input.to, 'A change of your Allot email was requested', {
    greeting: `Hello ${input.name},`,
    intro: [
      `${input.requestedBy} asked to change the email of your Allot account from ${input.to} to ${input.newEmail}.`,
      'A code went to the new address; the change applies only when it is entered there. Until then you sign in and receive mail here, as before.',
    ],
    outro: [
      'If you did not expect this, tell the admin of your organization, and sign in and change your password.',
    ],
  });
}

/** A change to an address that already has an account: no code; its owner learns what was tried. */
export function emailAddressTakenMail(input: { to: string }): Mail {
  return mail('email_change_refused', input.to, 'An Allot email change was not possible', {
    greeting: 'Hello,',
    intro: [
      `Someone asked to move another Allot account to ${input.to}, but this address already belongs to an Allot account. Nothing was changed.`,
    ],
    outro: ['If this was you, use a different address, or sign in with the account this address belongs to.'],
  });
}
