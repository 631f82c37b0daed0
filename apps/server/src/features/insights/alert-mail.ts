import { type CreditAlertThreshold, creditAlertLevel } from '@allot/domain/insights';
import { type Mail, type MailContent, type MailSettings, publicLink, renderHtml, renderText } from '../mail';

/** A crossed threshold as the alert trigger recorded it (`credit_alert_events`). */
export interface CrossedThreshold {
  organizationId: string;
  organizationName: string;
  threshold: CreditAlertThreshold;
  /** The threshold's level in credits when it was crossed. */
  level: number;
  /** The shared pool right after the posting that crossed it. */
  balance: number;
  /** The pool right after the last top-up, when it is still the one the level was computed from. */
  referenceBalance: number | null;
}

export interface AlertRecipient {
  email: string;
  name: string;
  role: 'organization_owner' | 'organization_admin';
}

const credits = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'credit' : 'credits'}`;

/** "10 % of the 5,000 credits after the last top-up: 500 credits", or "500 credits". */
export function thresholdWords(crossed: CrossedThreshold): string {
  const { threshold, level, referenceBalance } = crossed;
  if (threshold.kind === 'credits') return credits(level);
  // A top-up after the crossing moved the reference: the level alone is still right.
  if (referenceBalance === null || creditAlertLevel(threshold, referenceBalance) !== level)
    return `${threshold.value} % of the pool after the last top-up: ${credits(level)}`;
  return `${threshold.value} % of the ${credits(referenceBalance)} after the last top-up: ${credits(level)}`;
}

/** The mail an owner or admin gets when the shared pool crosses a low-balance threshold (decision 014). */
export function lowBalanceMail(
  crossed: CrossedThreshold,
  recipient: AlertRecipient,
  settings: MailSettings,
): Mail {
  const org = crossed.organizationName;
  const content: MailContent = {
    greeting: recipient.name ? `Hello ${recipient.name},` : 'Hello,',
    intro: [
      `The shared pool of ${org} is down to ${credits(crossed.balance)}.`,
      `It reached a low-balance alert set for ${org}: ${thresholdWords(crossed)}.`,
      'Teachers draw from the shared pool once their own credits are used up; when both are empty, the classroom product can no longer use AI credits for them.',
    ],
    action: {
      label: `Open the general information of ${org}`,
      url: publicLink(settings, `/${crossed.organizationId}`),
    },
    outro: [
      'There you see both pools and can move credits into the shared pool. This alert is sent once until the pool is topped up again.',
      `You get this email as ${recipient.role === 'organization_owner' ? 'the owner' : 'an admin'} of ${org} in Allot.`,
    ],
  };
  return {
    kind: 'credit_alert',
    to: recipient.email,
    subject: `${org}: the shared pool is low`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
