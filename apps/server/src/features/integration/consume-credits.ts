import {
  type ConsumeRequest,
  type ConsumeResponse,
  ENTITLEMENT_REASON_TEXT,
  type EntitlementReason,
  INTEGRATION_MSG,
  type LicenseType,
} from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { AppError } from '../../http/app-error';
import type { IntegrationCaller } from '../../http/authenticate';
import type { KeyAlongside } from '../../http/idempotency';
import { InsufficientCreditsError, type Posting, postCreditTransactionsReporting } from '../credits';
import { findPlacesOfEach, type Place, placeNamed, reasonsOf } from './check-entitlement';
import { consumedToday, dailyLimitSlot, lockDailyLimits } from './daily-limit';
import { refuseUnlessKeyLive } from './key-auth';

/** The reasons that refuse a consumption before any credit is looked at (the rest: see `refusingReasons`). */
const ALWAYS_REFUSING: readonly EntitlementReason[] = ['not_a_member', 'not_verified'];
/** With a `licenseType`, the teacher must also hold a seat of a live licence of it. */
const LICENCE_REASONS: readonly EntitlementReason[] = ['no_licence_of_type', 'licence_expired', 'no_seat'];

export const CONSUME_REFUSED_PREFIX = 'This teacher may not consume credits here:';

/** One consumption to make: the single call's body (CONTRACT §9), or one item of a batch. */
export type ConsumeItem = ConsumeRequest & { licenseType?: LicenseType | undefined };

/** What became of one consumption: its answer, or the refusal the single call would answer. */
export type ConsumeOutcome = { ok: true; answer: ConsumeResponse } | { ok: false; error: AppError };

/**
 * The organization a consumption is for: the named one (a member or invitee there, else `404`), or the only
 * one where the teacher is a member. Several memberships in the key's subtree without `organizationId`: `400`
 * (CONTRACT §9). Only pending invitations: the first of them, which `refuseUnlessAllowed` then refuses.
 */
function placeOf(places: readonly Place[], organizationId: string | undefined): Place {
  if (places.length === 0) throw AppError.notFound();
  if (organizationId !== undefined) return placeNamed(places, organizationId);
  const memberOf = places.filter((p) => !p.pending);
  if (memberOf.length > 1) {
    throw AppError.of('invalid_input', INTEGRATION_MSG.ambiguous, {
      fields: { organizationId: INTEGRATION_MSG.ambiguous },
      organizations: memberOf
        .map((p) => ({ id: p.organizationId, name: p.organizationName }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    });
  }
  return memberOf[0] ?? (places[0] as Place);
}

/**
 * What refuses the teacher here, whatever the credits: a pending invitation only, an account not set up,
 * and, when the call names a `licenseType`, no seat of a live licence of it. `422 business_rule` with the
 * reasons in `details.reasons` (CONTRACT §9's vocabulary and order).
 */
function refuseUnlessAllowed(place: Place, licenseType: string | undefined) {
  const refusing = reasonsOf(place).filter(
    (r) => ALWAYS_REFUSING.includes(r) || (licenseType !== undefined && LICENCE_REASONS.includes(r)),
  );
  if (refusing.length === 0) return;
  throw AppError.of(
    'business_rule',
    `${CONSUME_REFUSED_PREFIX} ${refusing.map((r) => ENTITLEMENT_REASON_TEXT[r]).join(' ')}`,
    { reasons: refusing },
  );
}

/** A consumption whose teacher and organization are known and allowed: its accounts to draw on. */
interface Placed {
  index: number;
  item: ConsumeItem;
  place: Place;
  ownAccountId: string;
  sharedAccountId: string;
  consumedAccountId: string;
}

/**
 * Opens what a consumption draws on and has not been opened yet: the teacher's balance in the organization
 * and the organization's `consumed` account. A row another transaction inserts and commits while this one
 * waits for a lock is not seen by the locking statement, so a teacher's first credits arriving at that moment
 * would be missed (their balance read as 0); inserting first waits for such an insert to commit. Each happens
 * once per teacher and organization, before any lock is held.
 */
async function openAccounts(tx: Tx, places: readonly Place[]): Promise<void> {
  const members = places.filter((p) => !p.ownAccountId).map((p) => [p.userId, p.organizationId]);
  if (members.length > 0) {
    await tx.execute(sql`insert into credit_accounts (kind, user_id, organization_id)
      select 'user', (m->>0)::uuid, (m->>1)::uuid from json_array_elements(${jsonParam(members)}) as m
      order by 2, 3 on conflict do nothing`);
  }
  const sinks = [...new Set(places.filter((p) => !p.consumedAccountId).map((p) => p.organizationId))];
  if (sinks.length > 0) {
    await tx.execute(sql`insert into credit_accounts (kind, organization_id)
      select 'consumed', value::uuid from json_array_elements_text(${jsonParam(sinks.sort())})
      order by 2 on conflict do nothing`);
  }
}

type Allowed = { index: number; item: ConsumeItem; place: Place };

/** The idempotency key of the call and the answer it keeps, made from the outcomes. */
export interface KeepWithPosting {
  key: KeyAlongside;
  bodyOf: (outcomes: ConsumeOutcome[]) => unknown;
}

function decided(outcome: ConsumeOutcome | undefined): ConsumeOutcome {
  if (!outcome) throw new Error('a consumption without an outcome');
  return outcome;
}

/**
 * The accounts each allowed consumption draws on, with their balances as the lookup locked them (`findPlacesOfEach`
 * with `lock`). Null when an account is still to be opened (a teacher's first consumption, an organization's
 * first).
 */
function lockedByLookup(
  allowed: readonly Allowed[],
): { placed: Placed[]; balances: Map<string, number> } | null {
  const balances = new Map<string, number>();
  const placed: Placed[] = [];
  for (const a of allowed) {
    const { ownAccountId, sharedAccountId, consumedAccountId, locked } = a.place;
    if (!ownAccountId || !sharedAccountId || !consumedAccountId) return null;
    if (locked?.own == null || locked.shared == null) return null;
    balances.set(ownAccountId, locked.own);
    balances.set(sharedAccountId, locked.shared);
    placed.push({ ...a, ownAccountId, sharedAccountId, consumedAccountId });
  }
  return { placed, balances };
}

/**
 * Finds every teacher of the call and locks their accounts in one statement, and sorts the items into those
 * allowed to go on and those refused already (their outcomes set).
 */
async function lookUpAndLock(
  tx: Tx,
  caller: IntegrationCaller,
  items: readonly ConsumeItem[],
  outcomes: (ConsumeOutcome | undefined)[],
  lock: 'ifOpen' | 'always',
): Promise<Allowed[]> {
  const placesOfEach = await findPlacesOfEach(
    tx,
    { subtreeOf: caller.organizationId, liveKey: caller.keyId },
    { byEmail: items.map((i) => ({ email: i.email, licenseType: i.licenseType })) },
    { lock },
  );
  // Nobody found for an item: the key may have been revoked meanwhile (the statement reads the subtree only
  // while the key is live), and then the whole call is `401`.
  if (placesOfEach.length < items.length || placesOfEach.some((p) => p.length === 0))
    await refuseUnlessKeyLive(tx, caller);
  const allowed: Allowed[] = [];
  items.forEach((item, index) => {
    try {
      const place = placeOf(placesOfEach[index] ?? [], item.organizationId);
      refuseUnlessAllowed(place, item.licenseType);
      allowed.push({ index, item, place });
      outcomes[index] = undefined;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes[index] = { ok: false, error };
    }
  });
  return allowed;
}

/**
 * Consumptions for the classroom product (CONTRACT §9), inside the caller's transaction: each draws the
 * teacher's own balance first, then the organization's shared pool, into the organization's `consumed`
 * account, as one `consumption` posting of the journal; each is applied or refused on its own, in the order
 * given, as if made one after the other (a later one sees what an earlier one took). One statement finds every
 * teacher and locks every account, one call of `post_credit_transactions` posts them all
 * (decision 016). Refusals: `404` (no such teacher in the key's subtree), `400` (several organizations, none
 * named), `422 business_rule` (not allowed here), `422 insufficient_credits` with `details.available`,
 * `422 daily_limit`. A refused one takes nothing.
 */
export async function consumeEach(
  tx: Tx,
  caller: IntegrationCaller,
  items: readonly ConsumeItem[],
  /** The call's idempotency key, kept in the posting's statement with the answer `bodyOf` makes. */
  keep?: KeepWithPosting,
): Promise<ConsumeOutcome[]> {
  const outcomes: (ConsumeOutcome | undefined)[] = items.map(() => undefined);
  let allowed = await lookUpAndLock(tx, caller, items, outcomes, 'ifOpen');
  let locked = lockedByLookup(allowed);
  if (!locked) {
    // An account still to be open (a teacher's first consumption here, or one elsewhere): the lookup locked
    // nothing. Open what is missing, holding no lock, then look up and lock again (a statement after the
    // inserts sees them).
    await openAccounts(
      tx,
      allowed.map((a) => a.place),
    );
    allowed = await lookUpAndLock(tx, caller, items, outcomes, 'always');
    locked = lockedByLookup(allowed);
    if (!locked) throw new Error('a credit account of consumption is missing after opening it');
  }
  if (allowed.length > 0) await drawInOrder(tx, locked.placed, locked.balances, outcomes, keep);
  return outcomes.map(decided);
}

/**
 * Decides each placed consumption in order against the balances under the locks and the daily limits, then
 * posts the applied ones in one call and counts them towards their organizations' day.
 */
async function drawInOrder(
  tx: Tx,
  placed: readonly Placed[],
  balances: Map<string, number>,
  outcomes: (ConsumeOutcome | undefined)[],
  keep: KeepWithPosting | undefined,
): Promise<void> {
  const limited = [
    ...new Set(placed.filter((p) => p.place.dailyLimit !== null).map((p) => p.place.organizationId)),
  ];
  await lockDailyLimits(tx, limited);
  const today = await consumedToday(tx, limited);
  const counted = new Map<string, number>();
  const postings: Posting[] = [];
  for (const p of placed) {
    const { item, place } = p;
    const own = balances.get(p.ownAccountId) ?? 0;
    const shared = balances.get(p.sharedAccountId) ?? 0;
    const available = own + shared;
    if (available < item.credits) {
      outcomes[p.index] = {
        ok: false,
        error: AppError.of('insufficient_credits', INTEGRATION_MSG.insufficientCredits(available), {
          available,
        }),
      };
      continue;
    }
    if (place.dailyLimit !== null) {
      const before = today.get(place.organizationId) ?? 0;
      if (before + item.credits > place.dailyLimit) {
        const left = Math.max(0, place.dailyLimit - before);
        outcomes[p.index] = {
          ok: false,
          error: AppError.of('daily_limit', INTEGRATION_MSG.dailyLimit(place.dailyLimit, left), {
            limit: place.dailyLimit,
            left,
          }),
        };
        continue;
      }
      today.set(place.organizationId, before + item.credits);
    }
    const fromOwn = Math.min(own, item.credits);
    const fromShared = item.credits - fromOwn;
    balances.set(p.ownAccountId, own - fromOwn);
    balances.set(p.sharedAccountId, shared - fromShared);
    const slot = `${place.organizationId}:${dailyLimitSlot(place.userId)}`;
    counted.set(slot, (counted.get(slot) ?? 0) + item.credits);
    postings.push({
      action: 'consumption',
      // The teacher who used the product: the credit log says who consumed, and the idle seats of the
      // licences screen know it even when the shared pool alone paid (decision 014, "Seat use").
      actorId: place.userId,
      description: item.description ? `${item.reference}: ${item.description}` : item.reference,
      lines: [
        ...(fromOwn > 0 ? [{ accountId: p.ownAccountId, amount: -fromOwn }] : []),
        ...(fromShared > 0 ? [{ accountId: p.sharedAccountId, amount: -fromShared }] : []),
        { accountId: p.consumedAccountId, amount: item.credits },
      ],
    });
    outcomes[p.index] = {
      ok: true,
      answer: {
        consumed: item.credits,
        fromOwn,
        fromShared,
        balances: { own: own - fromOwn, shared: shared - fromShared },
      },
    };
  }
  if (postings.length === 0) return;
  try {
    const writes = [countConsumption(counted)];
    const keptAt = keep ? writes.push(keep.key.statement(keep.bodyOf(outcomes.map(decided)))) - 1 : -1;
    const posted = await postCreditTransactionsReporting(tx, postings, [], { alongside: writes });
    if (keep) keep.key.kept(posted.alongside[keptAt]);
  } catch (error) {
    // Cannot happen under the locks above; should it, the database refused and the whole call fails.
    if (error instanceof InsufficientCreditsError)
      throw new Error('a consumption went below zero under its locks');
    throw error;
  }
}

/**
 * Adds the consumptions to their organizations' counts of today (UTC), one row per slot, in key order: a
 * statement that goes with the posting (`alongside`).
 */
function countConsumption(counted: Map<string, number>) {
  const slots = [...counted.entries()]
    .map(([key, credits]) => {
      const [organizationId, slot] = key.split(':');
      return [organizationId, Number(slot), credits] as const;
    })
    .sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : (a[0] as string) < (b[0] as string) ? -1 : 1));
  return sql`insert into consumption_days (organization_id, day, slot, credits)
    select (s->>0)::uuid, (now() at time zone 'utc')::date, (s->>1)::smallint, (s->>2)::bigint
    from json_array_elements(${jsonParam(slots)}) as s
    on conflict (organization_id, day, slot) do update set credits = consumption_days.credits + excluded.credits
    returning 1 as answer`;
}
