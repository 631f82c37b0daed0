import {
  type ConsumeRequest,
  type ConsumeResponse,
  ENTITLEMENT_REASON_TEXT,
  type EntitlementReason,
  INTEGRATION_MSG,
} from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { IntegrationCaller } from '../../http/authenticate';
import { InsufficientCreditsError, postCreditTransactionReporting } from '../credits/journal';
import { findPlaces, type Place, placeNamed, reasonsOf } from './entitlement-service';

/** The reasons that refuse a consumption before any credit is looked at (the rest: see `refusingReasons`). */
const ALWAYS_REFUSING: readonly EntitlementReason[] = ['not_a_member', 'not_verified'];
/** With a `licenseType`, the teacher must also hold a seat of a live licence of it. */
const LICENCE_REASONS: readonly EntitlementReason[] = ['no_licence_of_type', 'licence_expired', 'no_seat'];

export const CONSUME_REFUSED_PREFIX = 'This teacher may not consume credits here:';

/**
 * The organization a consumption is for: the named one (a member or invitee there, else `404`), or the only
 * one where the teacher is a member. Several memberships in the key's subtree without `organizationId`: `400`
 * (CONTRACT §9). Only pending invitations: the first of them, which `refusingReasons` then refuses.
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

interface LockedAccounts {
  own: { id: string; balance: number } | undefined;
  shared: { id: string; balance: number };
  consumed: { id: string } | undefined;
}

/**
 * Locks the teacher's balance in the organization, its shared pool and its `consumed` account in id order
 * (`FOR NO KEY UPDATE`, the journal's lock order), and answers them as they are under the locks.
 */
async function lockAccounts(tx: Tx, userId: string, organizationId: string): Promise<LockedAccounts> {
  const found = await rows<{ id: string; kind: string; balance: string }>(
    tx,
    sql`select id, kind, balance::text as balance from credit_accounts
        where organization_id = ${organizationId}
          and (kind in ('shared', 'consumed') or (kind = 'user' and user_id = ${userId}))
        order by id for no key update`,
  );
  const of = (kind: string) => {
    const row = found.find((r) => r.kind === kind);
    return row ? { id: row.id, balance: Number(row.balance) } : undefined;
  };
  const shared = of('shared');
  if (!shared) throw new Error(`organization ${organizationId} has no shared pool`);
  return { own: of('user'), shared, consumed: of('consumed') };
}

/**
 * Adds the consumption to the organization's count of today (UTC) and refuses it, `422 daily_limit`, when
 * that passes the organization's daily limit. The row is locked by the upsert until the transaction ends,
 * so two consumptions at once cannot both pass the limit; a refusal is undone with the rest of the work.
 */
async function countTowardsDailyLimit(tx: Tx, organizationId: string, credits: number): Promise<void> {
  const [row] = await rows<{ total: string; daily_limit: string | null }>(
    tx,
    sql`with counted as (
          insert into consumption_days (organization_id, day, credits)
          values (${organizationId}, (now() at time zone 'utc')::date, ${credits})
          on conflict (organization_id, day) do update set credits = consumption_days.credits + excluded.credits
          returning credits)
        select counted.credits::text as total, o.daily_consumption_limit::text as daily_limit
        from counted cross join organizations o where o.id = ${organizationId}`,
  );
  if (!row || row.daily_limit === null) return;
  const limit = Number(row.daily_limit);
  const total = Number(row.total);
  if (total <= limit) return;
  const left = Math.max(0, limit - (total - credits));
  throw AppError.of('daily_limit', INTEGRATION_MSG.dailyLimit(limit, left), { limit, left });
}

/**
 * POST /api/integration/consume (CONTRACT §9), inside the caller's transaction (idempotentWrite): draws the
 * teacher's own balance first, then the organization's shared pool, into the organization's `consumed`
 * account, as one `consumption` posting of the journal. Not enough in both: `422 insufficient_credits` with
 * `details.available`; above the daily limit: `422 daily_limit`. Either refusal takes nothing.
 */
export async function consumeCredits(
  tx: Tx,
  caller: IntegrationCaller,
  input: ConsumeRequest,
): Promise<ConsumeResponse> {
  const places = await findPlaces(
    tx,
    { subtreeOf: caller.organizationId },
    { email: input.email },
    input.licenseType,
  );
  const place = placeOf(places, input.organizationId);
  refuseUnlessAllowed(place, input.licenseType);
  const { userId, organizationId } = place;
  const credits = input.credits;

  // Every account the posting moves must exist before the locks: a row another transaction inserts and
  // commits while this one waits is not seen by the locking statement, so a teacher's first credits arriving
  // at that moment would be missed (their balance read as 0). Inserting first waits for such an insert to
  // commit. Each happens once per teacher and organization, and no lock is held yet: the locks below stay in
  // id order.
  if (!place.ownAccountId) {
    await tx.execute(
      sql`insert into credit_accounts (kind, user_id, organization_id) values ('user', ${userId}, ${organizationId})
          on conflict do nothing`,
    );
  }
  if (!place.consumedAccountId) {
    await tx.execute(
      sql`insert into credit_accounts (kind, organization_id) values ('consumed', ${organizationId}) on conflict do nothing`,
    );
  }
  const { own, shared, consumed } = await lockAccounts(tx, userId, organizationId);
  if (!own || !consumed) throw new Error(`a credit account of consumption in ${organizationId} is missing`);

  const ownBalance = own.balance;
  const available = ownBalance + shared.balance;
  const insufficient = () =>
    AppError.of('insufficient_credits', INTEGRATION_MSG.insufficientCredits(available), { available });
  if (available < credits) throw insufficient();
  await countTowardsDailyLimit(tx, organizationId, credits);

  const fromOwn = Math.min(ownBalance, credits);
  const fromShared = credits - fromOwn;
  const lines = [
    ...(fromOwn > 0 ? [{ accountId: own.id, amount: -fromOwn }] : []),
    ...(fromShared > 0 ? [{ accountId: shared.id, amount: -fromShared }] : []),
    { accountId: consumed.id, amount: credits },
  ];
  let balances: Map<string, number>;
  try {
    ({ balances } = await postCreditTransactionReporting(
      tx,
      {
        action: 'consumption',
        // The teacher who used the product: the credit log says who consumed, and the idle seats of the
        // licences screen know it even when the shared pool alone paid (decision 014, "Seat use").
        actorId: userId,
        description: input.description ? `${input.reference}: ${input.description}` : input.reference,
        lines,
      },
      [own.id, shared.id],
    ));
  } catch (error) {
    // Cannot happen under the locks above; should it, the refusal is the same and nothing was written.
    if (error instanceof InsufficientCreditsError) throw insufficient();
    throw error;
  }
  return {
    consumed: credits,
    fromOwn,
    fromShared,
    balances: {
      own: balances.get(own.id) ?? ownBalance - fromOwn,
      shared: balances.get(shared.id) ?? shared.balance - fromShared,
    },
  };
}
