import { CODE_MINUTES } from '@allot/domain/auth';
import { type MailContent, renderHtml, renderText } from '../mail/mail-layout';
import type { Mail } from '../mail/outbox';

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

export function invitationMail(input: {
  to: string;
  name: string;
  code: string;
  link: string;
  organizationName: string | null;
}): Mail {
  const where = input.organizationName ? ` for ${input.organizationName}` : '';
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
}): Mail {
  return mail('verification', input.to, 'Your Allot verification code', {
    greeting: `Hello ${input.name},`,
    intro: [
      input.needsPassword
        ? 'Here is a new code to verify your email and choose the password of your Allot account.'
        : 'Here is a new code to verify the email of your Allot account.',
    ],
    code: { label: 'Your verification code', value: input.code },
    action: { label: 'Open this link to enter the code', url: input.link },
    outro: [
      `The code expires in ${CODE_MINUTES} minutes.`,
      'If you did not ask for this, you can ignore this email.',
    ],
  });
}
