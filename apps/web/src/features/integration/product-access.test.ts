import { describe, expect, it } from 'vitest';
import {
  ACCESS_NOTE,
  type AccessContext,
  type AccessViewer,
  defaultLicenseType,
  fixesFor,
  licenceOfType,
  productOptions,
} from './product-access';

const licence = (
  licenseType: 'chorus' | 'tle_teacher',
  expireAt: string,
  expired = false,
  id: string = licenseType,
) => ({
  id,
  licenseType,
  expireAt,
  expired,
});

const owner: AccessViewer = {
  mayResend: true,
  changeLicenceBlocked: undefined,
  mayAddCredits: true,
  mayManageLicences: true,
};
const member = (overrides: Partial<AccessContext> = {}): AccessContext => ({
  viewer: owner,
  pending: false,
  licence: { id: 'lic-1', full: false },
  ...overrides,
});

describe('the product the panel asks about first', () => {
  const licences = [
    licence('tle_teacher', '2027-01-01T00:00:00.000Z'),
    licence('chorus', '2027-01-01T00:00:00.000Z'),
  ];

  it("is the licence the person holds a seat of, else the organization's first, else Chorus", () => {
    expect(defaultLicenseType({ licence: { licenseType: 'chorus' } }, licences)).toBe('chorus');
    expect(defaultLicenseType({ licence: null }, licences)).toBe('tle_teacher');
    expect(defaultLicenseType({ licence: null }, [])).toBe('chorus');
  });

  it("offers every product, the organization's own first; the others say it has none", () => {
    expect(productOptions([licence('tle_teacher', '2027-01-01T00:00:00.000Z')])).toEqual([
      { value: 'tle_teacher', label: 'TLE Teacher' },
      { value: 'chorus', label: 'Chorus (no licence here)' },
      { value: 'tle_creator', label: 'TLE Creator (no licence here)' },
      { value: 'chorus_optoma', label: 'Chorus Optoma (no licence here)' },
    ]);
  });

  it('gives a seat of the live licence of the type first, then of the latest expiry', () => {
    const old = licence('chorus', '2026-01-01T00:00:00.000Z', true, 'old');
    const live = licence('chorus', '2026-06-01T00:00:00.000Z', false, 'live');
    const later = licence('chorus', '2027-06-01T00:00:00.000Z', true, 'later');
    expect(licenceOfType([old, later, live], 'chorus')?.id).toBe('live');
    expect(licenceOfType([old, later], 'chorus')?.id).toBe('later');
    expect(licenceOfType([old], 'tle_teacher')).toBeUndefined();
  });
});

describe('what fixes each reason', () => {
  it('offers, in the order of the reasons: the invitation, the Licenses screen, a seat, credits', () => {
    expect(fixesFor(['not_verified', 'no_seat', 'no_credits'], member())).toEqual([
      { kind: 'resend' },
      { kind: 'give_seat', licenseId: 'lic-1' },
      { kind: 'add_credits' },
    ]);
    expect(fixesFor(['no_licence_of_type', 'no_seat'], member({ licence: undefined }))).toEqual([
      { kind: 'licences' },
      { kind: 'note', text: ACCESS_NOTE.seatAfterLicence },
    ]);
    expect(fixesFor(['licence_expired'], member())).toEqual([{ kind: 'licences' }]);
  });

  it('sends the invitation again once, even when it fixes two reasons', () => {
    expect(fixesFor(['not_a_member', 'not_verified'], member({ pending: true }))).toEqual([
      { kind: 'resend' },
      { kind: 'note', text: ACCESS_NOTE.sameInvitation },
    ]);
  });

  it('a full licence leads to the Licenses screen to add seats rather than to a change that would be refused', () => {
    expect(fixesFor(['no_seat'], member({ licence: { id: 'lic-1', full: true } }))).toEqual([
      { kind: 'licences', note: ACCESS_NOTE.licenceFull },
    ]);
  });

  it('says in words what the viewer may not do, with the reason', () => {
    const admin: AccessViewer = {
      mayResend: false,
      changeLicenceBlocked: 'Ann Lee: You cannot change a member whose role is above yours.',
      mayAddCredits: false,
      mayManageLicences: false,
    };
    expect(
      fixesFor(['not_verified', 'no_licence_of_type', 'no_seat', 'no_credits'], member({ viewer: admin })),
    ).toEqual([
      { kind: 'note', text: ACCESS_NOTE.resendTooHigh },
      { kind: 'note', text: ACCESS_NOTE.licencesOwner },
      { kind: 'note', text: admin.changeLicenceBlocked },
      { kind: 'note', text: ACCESS_NOTE.creditsOwner },
    ]);
    expect(fixesFor(['no_seat'], member({ viewer: admin, licence: { id: 'lic-1', full: true } }))).toEqual([
      { kind: 'note', text: ACCESS_NOTE.seatsOwner },
    ]);
  });

  it('adds no credits to someone who has not joined yet (no balance of their own until then)', () => {
    expect(fixesFor(['not_a_member', 'no_credits'], member({ pending: true }))).toEqual([
      { kind: 'resend' },
      { kind: 'note', text: ACCESS_NOTE.creditsAfterJoining },
    ]);
  });

  it('has nothing to fix for an entitled person', () => {
    expect(fixesFor([], member())).toEqual([]);
  });
});
