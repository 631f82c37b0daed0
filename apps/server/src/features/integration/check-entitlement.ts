import type {
  Entitlement,
  EntitlementQuery,
  EntitlementReason,
  LicenseType,
} from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { preparedRows } from '../../db/prepared-rows';
import { AppError } from '../../http/app-error';
import type { AuthUser, IntegrationCaller } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { requireOrganizationAccess } from '../organization-access';
import { liveKeySql, refuseUnlessKeyLive } from './key-auth';

/**
 * One organization where a person is a member or has a pending invitation, with everything the entitlement
 * check (CONTRACT §9) reads: the licence it is about, the seat, the credits.
 */
export interface Place {
  /** The account. */
  userId: string;
  /**
   * How answers name the person here: a member's user id; an invitation's own id (CONTRACT §3: never the id of
   * an account the caller did not create).
   */
  answerId: string;
  /** The address: the account's for a member, the one the inviter typed for an invitation. */
  email: string;
  organizationId: string;
  organizationName: string;
  /**
   * Not in yet: an invitation of an account that existed, or a new account that has not set itself up from
   * its invitation. Both read alike (CONTRACT §3: no answer tells whether an address had an account).
   */
  pending: boolean;
  /** The licence the answer is about (see `findPlaces`); null when the organization has none (of the type). */
  licence: { id: string; licenseType: LicenseType; expireAt: string; expired: boolean } | null;
  /** The person holds (or, invited, is held) a seat of that licence. */
  seat: boolean;
  /** The person's own balance in this organization (0 without a credit account there). */
  own: number;
  /** The organization's shared pool. */
  shared: number;
  /** What was asked: a licence type, or null for "any licence". */
  askedType: LicenseType | null;
  /**
   * The person's credit account in this organization; null until something first gave them credits there (or
   * they first consumed there).
   */
  ownAccountId: string | null;
  /** The organization's shared pool account (every live organization has one). */
  sharedAccountId: string | null;
  /** The organization's `consumed` account, once its first consumption opened it (consume-credits.ts). */
  consumedAccountId: string | null;
  /** The organization's daily consumption limit (issue 15), or null. */
  dailyLimit: number | null;
  /** Asked with `lock`: the balances under the locks (null: no such account yet). */
  locked?: { own: number | null; shared: number | null };
}

/**
 * Where to look: the subtree of an integration key's organization, while the key is live (`liveKey`: found in
 * the same statement, so a call answered from the process's copy of the key is confirmed by its own read,
 * key-auth.ts), or exactly one organization (the panel).
 */
type Scope = { subtreeOf: string; liveKey?: string } | { organization: string };
/** Whom: by email (the classroom product) or by id (the panel). */
type Person = { email: string } | { userId: string };

/**
 * Every organization of the scope where the person is a member or has a pending invitation, in one query.
 * The licence each answer is about: with `licenseType`, the organization's licence of that type; without,
 * the licence the person holds a seat of, else the organization's licence a seat would be taken of (a live
 * one first, then the latest expiry).
 */
export async function findPlaces(
  db: Tx,
  scope: Scope,
  person: Person,
  licenseType: LicenseType | undefined,
): Promise<Place[]> {
  if ('userId' in person) {
    if (!isUuid(person.userId)) return [];
    return (await findPlacesOfEach(db, scope, { byId: [{ userId: person.userId, licenseType }] }))[0] ?? [];
  }
  return (await findPlacesOfEach(db, scope, { byEmail: [{ email: person.email, licenseType }] }))[0] ?? [];
}

/** What `findPlacesOfEach` looks for: people by email (the classroom product) or by id (the panel). */
type Asks =
  | { byEmail: readonly { email: string; licenseType: LicenseType | undefined }[] }
  | { byId: readonly { userId: string; licenseType: LicenseType | undefined }[] };

/**
 * `findPlaces` for several people at once (a batch of consumptions: one query for up to 100), each with the
 * licence type it asks about. Answers the places of each ask, in the order asked.
 */
export async function findPlacesOfEach(
  db: Tx,
  scope: Scope,
  asks: Asks,
  /**
   * In the same statement, lock every found place's own balance and shared pool (`FOR NO KEY UPDATE`, in id
   * order) and answer their balances under the locks (`locked`): the consumption's lookup and lock in one
   * round trip (decision 016). `ifOpen`: nothing is locked while an account of a found place is still to be
   * opened (the caller opens what it needs, holding no lock, and looks up again with `always`).
   */
  options: { lock?: 'ifOpen' | 'always' } = {},
): Promise<Place[][]> {
  const byEmail = 'byEmail' in asks;
  const list = byEmail
    ? asks.byEmail.map((a, n) => ({ n, email: a.email, license_type: a.licenseType ?? null }))
    : asks.byId.map((a, n) => ({ n, user_id: a.userId, license_type: a.licenseType ?? null }));
  const found = await preparedRows<{
    n: number;
    user_id: string;
    answer_id: string;
    email: string;
    organization_id: string;
    name: string;
    pending: boolean;
    licence_id: string | null;
    license_type: LicenseType | null;
    expire_at: Date | string | null;
    expired: boolean | null;
    seat: boolean;
    own: string;
    shared: string;
    own_account_id: string | null;
    shared_account_id: string | null;
    consumed_account_id: string | null;
    daily_limit: string | null;
    own_locked?: string | null;
    shared_locked?: string | null;
  }>(
    db,
    // By id (the panel): a member by their user id, an invitation by its own id, nothing else.
    sql`${options.lock ? sql`with found as (` : sql``}with ask as (
          select a.n, ${byEmail ? sql`a.email` : sql`a.user_id`}, a.license_type
          from json_to_recordset(${jsonParam(list)})
            as a(n int, ${byEmail ? sql`email text` : sql`user_id uuid`}, license_type text)
          ${'liveKey' in scope && scope.liveKey ? sql`where ${liveKeySql(scope.liveKey)}` : sql``}),
        places as (
          select a.n, a.license_type as asked, m.user_id, m.organization_id, m.user_id as answer_id, u.email,
            u.email_verified_at is null as pending, m.license_id
          from ask a
          ${
            byEmail
              ? sql`join users u on lower(u.email) = lower(a.email) join memberships m on m.user_id = u.id`
              : sql`join memberships m on m.user_id = a.user_id join users u on u.id = m.user_id`
          }
          union all
          select a.n, a.license_type, i.user_id, i.organization_id, i.id, i.invited_email, true, i.license_id
          from ask a
          ${
            byEmail
              ? sql`join users u on lower(u.email) = lower(a.email) join membership_invitations i on i.user_id = u.id`
              : sql`join membership_invitations i on i.id = a.user_id`
          }
          where not exists (select 1 from memberships x where x.user_id = i.user_id and x.organization_id = i.organization_id))
        select p.n, p.user_id, p.answer_id, p.email, p.organization_id, o.name, p.pending,
          l.id as licence_id, l.license_type, l.expire_at, l.expire_at <= now() as expired,
          coalesce(p.license_id = l.id, false) as seat,
          coalesce(own.balance, 0)::text as own, own.id as own_account_id,
          o.shared_credits::text as shared, o.daily_consumption_limit::text as daily_limit,
          (select a.id from credit_accounts a where a.organization_id = p.organization_id and a.kind = 'shared')
            as shared_account_id,
          (select a.id from credit_accounts a where a.organization_id = p.organization_id and a.kind = 'consumed')
            as consumed_account_id
        from places p
        left join credit_accounts own on own.kind = 'user' and own.user_id = p.user_id and own.organization_id = p.organization_id
        join organizations o on o.id = p.organization_id and o.deleted_at is null
        ${
          'subtreeOf' in scope
            ? sql`join organization_closure c on c.descendant_id = p.organization_id and c.ancestor_id = ${scope.subtreeOf}`
            : sql``
        }
        left join lateral (
          select l.id, l.license_type, l.expire_at from licenses l
          where l.organization_id = p.organization_id and (p.asked is null or l.license_type = p.asked)
          order by (l.id = p.license_id) desc nulls last, (l.expire_at > now()) desc, l.expire_at desc, l.license_type
          limit 1) l on true
        ${'organization' in scope ? sql`where p.organization_id = ${scope.organization}` : sql``}
        ${
          options.lock
            ? sql`),
        locked as (
          select a.id, a.balance from credit_accounts a
          -- The ids as one value (an init plan), not a join: a row locked after a wait is checked again against
          -- the condition, and a join with the found rows there dropped the pool another consumption had just updated.
          where a.id = any (array(select own_account_id from found union all select shared_account_id from found))
            ${
              options.lock === 'ifOpen'
                ? sql`and not exists (select 1 from found f where f.own_account_id is null or f.consumed_account_id is null)`
                : sql``
            }
          order by a.id for no key update),
        -- The locked balances as one row, joined to every found row: a lookup in the locked rows for each found
        -- row scanned them all each time. The found rows keep their own order, as without the lock.
        balances as (select jsonb_object_agg(l.id, l.balance) as locked from locked l)
        select found.*, (b.locked->>found.own_account_id::text) as own_locked,
          (b.locked->>found.shared_account_id::text) as shared_locked
        from found, balances b`
            : sql``
        }`,
  );
  const places: Place[][] = list.map(() => []);
  for (const r of found) {
    places[r.n]?.push({
      userId: r.user_id,
      answerId: r.answer_id,
      email: r.email,
      organizationId: r.organization_id,
      organizationName: r.name,
      pending: r.pending,
      licence:
        r.licence_id && r.license_type && r.expire_at
          ? {
              id: r.licence_id,
              licenseType: r.license_type,
              expireAt: new Date(r.expire_at).toISOString(),
              expired: r.expired === true,
            }
          : null,
      seat: r.seat,
      own: Number(r.own),
      shared: Number(r.shared),
      askedType: list[r.n]?.license_type ?? null,
      ownAccountId: r.own_account_id,
      sharedAccountId: r.shared_account_id,
      consumedAccountId: r.consumed_account_id,
      dailyLimit: r.daily_limit === null ? null : Number(r.daily_limit),
      ...(options.lock
        ? {
            locked: {
              own: r.own_locked == null ? null : Number(r.own_locked),
              shared: r.shared_locked == null ? null : Number(r.shared_locked),
            },
          }
        : {}),
    });
  }
  return places;
}

/**
 * Why the person may not use the product in this place, in CONTRACT §9's order (the order a person fixes
 * them): join, verify the account, get the organization a licence, renew it, take a seat, get credits.
 * An invitee's seat is the one the invitation holds for them: it becomes theirs when they accept.
 */
export function reasonsOf(place: Place): EntitlementReason[] {
  const reasons: EntitlementReason[] = [];
  // One reason for both kinds of pending person (CONTRACT §3): what fixes either is accepting the invitation.
  if (place.pending) reasons.push('not_a_member');
  if (!place.licence) reasons.push('no_licence_of_type');
  else if (place.licence.expired) reasons.push('licence_expired');
  if (!place.seat) reasons.push('no_seat');
  if (place.own + place.shared <= 0) reasons.push('no_credits');
  return reasons;
}

export function entitlementOf(place: Place): Entitlement {
  const reasons = reasonsOf(place);
  return {
    entitled: reasons.length === 0,
    userId: place.answerId,
    email: place.email,
    organizationId: place.organizationId,
    licenseType: place.licence?.licenseType ?? place.askedType,
    expireAt: place.licence?.expireAt ?? null,
    credits: { own: place.own, shared: place.shared },
    reasons,
  };
}

/** The place an id names among the person's places, or `404` (an id the caller may not see). */
export function placeNamed(places: readonly Place[], organizationId: string): Place {
  const id = organizationId.toLowerCase();
  const place = places.find((p) => p.organizationId === id);
  if (!place) throw AppError.notFound();
  return place;
}

/**
 * Of several places, the one to answer for when none is named: entitled first, then the fewest reasons, then
 * the organization's name (then its id, so the answer is stable).
 */
export function bestEntitlement(places: readonly Place[]): Entitlement {
  const ranked = places
    .map((place) => ({ place, answer: entitlementOf(place) }))
    .sort(
      (a, b) =>
        Number(b.answer.entitled) - Number(a.answer.entitled) ||
        a.answer.reasons.length - b.answer.reasons.length ||
        a.place.organizationName.localeCompare(b.place.organizationName) ||
        (a.place.organizationId < b.place.organizationId ? -1 : 1),
    );
  const best = ranked[0];
  if (!best) throw AppError.notFound();
  return best.answer;
}

/**
 * GET /api/integration/entitlement (CONTRACT §9): whether the teacher may use the product now, inside the
 * key's subtree only. No membership and no invitation there: `404`, like any id the caller may not see (`401`
 * if the key was revoked meanwhile).
 */
export async function checkEntitlement(
  db: Tx,
  caller: IntegrationCaller,
  query: EntitlementQuery,
): Promise<Entitlement> {
  const places = await findPlaces(
    db,
    { subtreeOf: caller.organizationId, liveKey: caller.keyId },
    { email: query.email },
    query.licenseType,
  );
  if (places.length === 0) {
    await refuseUnlessKeyLive(db, caller);
    throw AppError.notFound();
  }
  if (query.organizationId !== undefined) return entitlementOf(placeNamed(places, query.organizationId));
  return bestEntitlement(places);
}

/**
 * GET /api/organization/{id}/users/{userId}/entitlement: the same answer for the users screen's "Why can't
 * this teacher use it?" panel. Needs `manage_users` on the organization; the person must be a member of it
 * or invited to it, else `404`.
 */
export async function checkMemberEntitlement(
  db: Tx,
  user: AuthUser,
  organizationId: string,
  userId: string,
  licenseType: LicenseType | undefined,
): Promise<Entitlement> {
  await requireOrganizationAccess(db, user, organizationId, ['manage_users']);
  const [place] = await findPlaces(db, { organization: organizationId }, { userId }, licenseType);
  if (!place) throw AppError.notFound();
  return entitlementOf(place);
}
