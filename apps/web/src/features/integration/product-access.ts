import type { EntitlementReason } from '@allot/domain/integration';
import { LICENSE_TYPE_LABEL, LICENSE_TYPES, type LicenseType } from '@allot/domain/organizations';

/*
 * The users screen's "Why can't this teacher use it?" panel, as rules: which product it asks about first,
 * and for each reason of the entitlement check what the viewer may do about it (CONTRACT §9, issue 15).
 */

interface HeldLicence {
  licenseType: LicenseType;
  expireAt: string;
  expired: boolean;
}

/**
 * The product asked about when the panel opens: the licence the person holds a seat of, else the
 * organization's first licence, else the first product (the answer then says the organization has none).
 */
export function defaultLicenseType(
  person: { licence: { licenseType: LicenseType } | null },
  licenses: readonly { licenseType: LicenseType }[],
): LicenseType {
  return person.licence?.licenseType ?? licenses[0]?.licenseType ?? LICENSE_TYPES[0];
}

/** Every product, those the organization holds a licence of first; the others say so. */
export function productOptions(
  licenses: readonly { licenseType: LicenseType }[],
): { value: LicenseType; label: string }[] {
  const held = new Set(licenses.map((l) => l.licenseType));
  const first = LICENSE_TYPES.filter((type) => held.has(type));
  const others = LICENSE_TYPES.filter((type) => !held.has(type));
  return [
    ...first.map((type) => ({ value: type, label: LICENSE_TYPE_LABEL[type] })),
    ...others.map((type) => ({ value: type, label: `${LICENSE_TYPE_LABEL[type]} (no licence here)` })),
  ];
}

/**
 * The organization's licence of a product a seat would be given of, as the server picks it: a live one
 * first, then the latest expiry.
 */
export function licenceOfType<L extends HeldLicence>(
  licenses: readonly L[],
  licenseType: LicenseType,
): L | undefined {
  return licenses
    .filter((l) => l.licenseType === licenseType)
    .sort((a, b) => Number(a.expired) - Number(b.expired) || b.expireAt.localeCompare(a.expireAt))[0];
}

/** What the viewer may do for this person (from its permissions and the person's rank). */
export interface AccessViewer {
  /** The person's invitation is pending and the viewer may send it again (manage_users, rank). */
  mayResend: boolean;
  /** Why the viewer may not change this person's licence (someone above them); undefined when it may. */
  changeLicenceBlocked: string | undefined;
  /** transfer_org_credits: the allocate-credits dialog. */
  mayAddCredits: boolean;
  /** manage_org_license: the Licenses screen, where licences are bought, extended and seats added. */
  mayManageLicences: boolean;
}

export interface AccessContext {
  viewer: AccessViewer;
  /** Only invited, or an account not set up yet: holds no credits, so none can be allocated to them. */
  pending: boolean;
  /** The organization's licence of the product asked about (see `licenceOfType`), with whether it is full. */
  licence: { id: string; full: boolean } | undefined;
}

/** The way out of one reason: an action the panel offers, a link, or only words when the viewer has none. */
export type Fix =
  | { kind: 'resend' }
  | { kind: 'give_seat'; licenseId: string }
  | { kind: 'add_credits' }
  | { kind: 'licences'; note?: string }
  | { kind: 'note'; text: string };

export const ACCESS_NOTE = {
  resendTooHigh: 'Their role is above yours: someone at their level or higher can send the invitation again.',
  sameInvitation: 'Accepting the same invitation fixes this too.',
  licencesOwner: 'Ask an owner of the organization to get this licence or renew it.',
  seatAfterLicence: 'Once the organization has a live licence of this product, give them a seat of it.',
  licenceFull: 'Every seat of this licence is used: add seats, or free one first.',
  seatsOwner: 'Every seat of this licence is used. Ask an owner to add seats.',
  creditsOwner: 'Ask someone who manages the credits of the organization to add some.',
  creditsAfterJoining: 'Credits can be added once they have joined: their own balance starts then.',
} as const;

/** What fixes one reason; `resendOffered`: an earlier reason already offers to send the invitation again. */
function fixOf(reason: EntitlementReason, context: AccessContext, resendOffered: boolean): Fix {
  const { viewer, licence } = context;
  switch (reason) {
    case 'not_a_member':
    case 'not_verified':
      if (!viewer.mayResend) return { kind: 'note', text: ACCESS_NOTE.resendTooHigh };
      return resendOffered ? { kind: 'note', text: ACCESS_NOTE.sameInvitation } : { kind: 'resend' };
    case 'no_licence_of_type':
    case 'licence_expired':
      return viewer.mayManageLicences
        ? { kind: 'licences' }
        : { kind: 'note', text: ACCESS_NOTE.licencesOwner };
    case 'no_seat':
      if (!licence) return { kind: 'note', text: ACCESS_NOTE.seatAfterLicence };
      if (licence.full) {
        return viewer.mayManageLicences
          ? { kind: 'licences', note: ACCESS_NOTE.licenceFull }
          : { kind: 'note', text: ACCESS_NOTE.seatsOwner };
      }
      if (viewer.changeLicenceBlocked) return { kind: 'note', text: viewer.changeLicenceBlocked };
      return { kind: 'give_seat', licenseId: licence.id };
    case 'no_credits':
      if (!viewer.mayAddCredits) return { kind: 'note', text: ACCESS_NOTE.creditsOwner };
      if (context.pending) return { kind: 'note', text: ACCESS_NOTE.creditsAfterJoining };
      return { kind: 'add_credits' };
  }
}

/**
 * For each reason, in the server's order, what fixes it. Sending the invitation again is offered once, on the
 * first reason it fixes (an invited person who has no account yet has both `not_a_member` and `not_verified`).
 */
export function fixesFor(reasons: readonly EntitlementReason[], context: AccessContext): Fix[] {
  const fixes: Fix[] = [];
  for (const reason of reasons) {
    fixes.push(
      fixOf(
        reason,
        context,
        fixes.some((fix) => fix.kind === 'resend'),
      ),
    );
  }
  return fixes;
}
