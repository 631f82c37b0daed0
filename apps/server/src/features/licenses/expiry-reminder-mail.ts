import { LICENSE_TYPE_LABEL, type LicenseType } from '@allot/domain/organizations';
import { type Mail, type MailContent, type MailSettings, publicLink, renderHtml, renderText } from '../mail';

/** What an expiry reminder says: the licence, where it is, and (handed down) where its expiry comes from. */
export interface ExpiringLicence {
  licenseType: LicenseType;
  organizationId: string;
  organizationName: string;
  seats: number;
  expireAt: string;
  /** The organization whose licence this one's seats were handed down from: it sets this one's expiry. */
  sourceOrganizationName: string | null;
}

/** Who gets it and why: the owner (of this organization, or the nearest one above) or the invoice contact. */
export interface ReminderRecipient {
  to: string;
  name: string | null;
  reason: { kind: 'owner'; organizationName: string } | { kind: 'invoice' };
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Whole days left, rounded up: a licence that expires in 6 days and 5 hours has 7 days left. */
export function daysLeft(expireAt: string, now: Date): number {
  return Math.max(1, Math.ceil((new Date(expireAt).getTime() - now.getTime()) / DAY_MS));
}

/**
 * The reminder a licence's owner (and the customer of the organization's latest invoice) gets 30 and 7
 * days before it expires: what expires and when, the licences screen, and how to keep it.
 */
export function expiryReminderMail(
  licence: ExpiringLicence,
  recipient: ReminderRecipient,
  settings: MailSettings,
  now: Date,
): Mail {
  const type = LICENSE_TYPE_LABEL[licence.licenseType];
  const date = longDate(licence.expireAt);
  const left = daysLeft(licence.expireAt, now);
  const seats = `${licence.seats.toLocaleString('en-US')} ${licence.seats === 1 ? 'seat' : 'seats'}`;
  const source = licence.sourceOrganizationName;
  const content: MailContent = {
    greeting: recipient.name ? `Hello ${recipient.name},` : 'Hello,',
    intro: [
      `The ${type} licence of ${licence.organizationName} (${seats}) expires on ${date}, in ${left} ${left === 1 ? 'day' : 'days'}.`,
      `After that day the licence gives no access to ${type}: the people holding its seats lose it, and none of its seats can be given or handed down until it is extended.`,
    ],
    action: {
      label: `Open the licences of ${licence.organizationName}`,
      url: publicLink(settings, `/${licence.organizationId}/licenses`),
    },
    outro: [
      source
        ? `Its seats were handed down from the ${type} licence of ${source}, and it expires with that one: when ${source} extends its licence, this one is extended too. If you need it longer, ask the admins of ${source}.`
        : `To keep it, choose “Extend” beside the licence on the licences screen: it opens an invoice for the period you pick, and the new expiry applies, to every licence handed down from it too, once the invoice is paid.`,
      recipient.reason.kind === 'owner'
        ? `You get this email as the owner of ${recipient.reason.organizationName} in Allot.`
        : `You get this email as the contact of the latest invoice of ${licence.organizationName}.`,
    ],
  };
  return {
    kind: 'license_expiry',
    to: recipient.to,
    subject: `Your ${type} licence for ${licence.organizationName} expires on ${date}`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
