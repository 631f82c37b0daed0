import type { CreditAction } from '@allot/domain/credits';
import { APP_MSG } from '@allot/domain/messages';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { preparedRows } from '../../db/prepared-rows';
import { rows } from '../../db/rows';
import { afterCommit, rememberTransactionId, sqlState } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import { ledgerPostings } from '../../lib/metrics';

export interface JournalLine {
  accountId: string;
  amount: number;
}

/** What lines change of each account: their amounts summed by account. */
export function changeByAccount(lines: readonly JournalLine[]): Map<string, number> {
  const change = new Map<string, number>();
  for (const l of lines) change.set(l.accountId, (change.get(l.accountId) ?? 0) + l.amount);
  return change;
}

/** A line would take an account below zero; nothing was written. `balance` is what the account holds. */
export class InsufficientCreditsError extends Error {
  constructor(
    readonly accountId: string,
    readonly balance: number,
  ) {
    super(`credit account ${accountId} would go below zero`);
  }
}

/**
 * A line names a pool of an organization deleted meanwhile (CR007), or gives credits to a person who left the
 * organization meanwhile (CR008); nothing was written. It is gone: `404`.
 */
export class DeletedOrganizationPoolError extends AppError {
  constructor() {
    super('not_found', APP_MSG.notFound);
  }
}

export interface Posting {
  action: CreditAction;
  actorId: string | null;
  description?: string;
  lines: JournalLine[];
  /** A posting of the past: only seeds date one (the demo's history, the benchmark's year). */
  createdAt?: Date;
}

/**
 * Posts one balanced transaction in the caller's database transaction, through the database's
 * `post_credit_transactions` (migration 0033): the one writer of balances. It locks the accounts in id order,
 * refuses a balance below zero and a pool of a deleted organization, writes the header and its lines, and keeps
 * the organizations' copies of their own pools in step, in one round trip. Triggers make any other write of a
 * balance or of the journal fail. Answers the transaction's id and the balances after of the accounts in
 * `report`.
 */
export async function postCreditTransactionReporting(
  tx: Tx,
  input: Posting,
  report: readonly string[],
  writes?: PostedWith,
): Promise<{ id: string; balances: Map<string, number> }> {
  const { ids, balances } = await postCreditTransactionsReporting(tx, [input], report, writes);
  return { id: ids[0] as string, balances };
}

/** Writes that go in the posting's own statement, so that a move is one round trip (decision 016). */
export interface PostedWith {
  /**
   * Data-modifying `with`s that see the database as the statement began, not the postings (the consumption's
   * daily count, the idempotency key with its answer). Each returns a column `answer` (or no row): answered in
   * `alongside`.
   */
  alongside?: readonly SQL[];
  /**
   * Data-modifying `with`s that read the postings' result: the CTE `posted`, one row with the column `posted`
   * (jsonb: `ids`, the transactions' ids in order, and `balances`, the balances after of the reported
   * accounts). A move's audit entries (move-audit.ts).
   */
  afterward?: readonly SQL[];
}

/**
 * Several balanced transactions in one call (a batch of consumptions, decision 016): one lock of each account,
 * one insert of the headers and one of the lines. The balances are checked on the whole set, so a set must
 * only take from an account it takes from (never give to it in one posting and take in another). Answers the
 * transactions' ids in the order given and the balances after of the accounts in `report`. The statement also
 * reads the database transaction's id, so that `writeTransaction` need not ask for it before COMMIT.
 */
export async function postCreditTransactionsReporting(
  tx: Tx,
  postings: readonly Posting[],
  report: readonly string[],
  { alongside = [], afterward = [] }: PostedWith = {},
): Promise<{ ids: string[]; balances: Map<string, number>; alongside: (string | null)[] }> {
  if (postings.length === 0) throw new Error('no credit transaction to post');
  const lines = postings.flatMap((p, index) =>
    p.lines.filter((l) => l.amount !== 0).map((l) => ({ ...l, posting: index + 1 })),
  );
  if (postings.some((_, index) => !lines.some((l) => l.posting === index + 1))) {
    throw new Error('credit transaction has no lines');
  }
  if (lines.some((l) => !Number.isSafeInteger(l.amount))) throw new Error('credit amounts must be integers');
  const createdAt = postings[0]?.createdAt;
  const posting = sql`post_credit_transactions(${textArray(postings.map((p) => p.action))},
    ${uuidArray(postings.map((p) => p.actorId))}::uuid[], ${textArray(postings.map((p) => p.description ?? ''))},
    ${`{${lines.map((l) => l.posting).join(',')}}`}::int[], ${uuidArray(lines.map((l) => l.accountId))}::uuid[],
    ${`{${lines.map((l) => l.amount).join(',')}}`}::bigint[], ${uuidArray(report)}::uuid[],
    ${createdAt?.toISOString() ?? null}::timestamptz)`;
  const before = alongside.map((write, i) => sql`${sql.raw(`alongside_${i}`)} as (${write})`);
  const after = afterward.map((write, i) => sql`${sql.raw(`afterward_${i}`)} as (${write})`);
  const answers = alongside.map(
    (_, i) => sql`(select w.answer::text from ${sql.raw(`alongside_${i}`)} w limit 1)`,
  );
  try {
    const [row] = await preparedRows<{
      posted: { ids: string[]; balances: Record<string, number> };
      alongside: (string | null)[] | null;
      xid: string;
    }>(
      tx,
      after.length > 0
        ? sql`with ${sql.join([...before, sql`posted as materialized (select ${posting} as posted)`, ...after], sql`, `)}
            select ${answers.length > 0 ? sql`array[${sql.join(answers, sql`, `)}]` : sql`null::text[]`} as alongside,
              (select p.posted from posted p) as posted, pg_current_xact_id()::text as xid`
        : sql`${before.length > 0 ? sql`with ${sql.join(before, sql`, `)} ` : sql``}select ${
            answers.length > 0 ? sql`array[${sql.join(answers, sql`, `)}]` : sql`null::text[]`
          } as alongside, ${posting} as posted, pg_current_xact_id()::text as xid`,
    );
    if (!row) throw new Error('post_credit_transactions returned no row');
    rememberTransactionId(tx, row.xid);
    afterCommit(tx, () => {
      for (const p of postings) ledgerPostings.inc({ action: p.action });
    });
    return {
      ids: row.posted.ids,
      balances: new Map(Object.entries(row.posted.balances).map(([k, v]) => [k, Number(v)])),
      alongside: row.alongside ?? [],
    };
  } catch (error) {
    const state = sqlState(error);
    if (state === 'CR007' || state === 'CR008') throw new DeletedOrganizationPoolError();
    throw insufficientCredits(error) ?? error;
  }
}

/** A text[] of any texts (a description may hold commas and quotes), in order, from one JSON parameter. */
function textArray(texts: readonly string[]) {
  return sql`array(select t.value from json_array_elements_text(${jsonParam(texts)}) with ordinality as t(value, n) order by t.n)`;
}

/** A uuid[] literal; a null element (a posting no person made) as NULL. */
function uuidArray(ids: readonly (string | null)[]): string {
  return `{${ids.map((id) => id ?? 'NULL').join(',')}}`;
}

/** `postCreditTransactionReporting` without balances: the transaction's id. */
export async function postCreditTransaction(tx: Tx, input: Posting): Promise<string> {
  return (await postCreditTransactionReporting(tx, input, [])).id;
}

/** The database's refusal of a balance below zero (SQLSTATE CR001, detail "account balance"), if it is one. */
function insufficientCredits(error: unknown): InsufficientCreditsError | undefined {
  if (sqlState(error) !== 'CR001') return undefined;
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const detail = (e as { detail?: unknown }).detail;
    if (typeof detail === 'string') {
      const [accountId = '', balance = '0'] = detail.split(' ');
      return new InsufficientCreditsError(accountId, Number(balance));
    }
    e = (e as { cause?: unknown }).cause;
  }
  return new InsufficientCreditsError('', 0);
}

export async function systemAccountId(tx: Tx): Promise<string> {
  await tx.execute(sql`insert into credit_accounts (kind) values ('system') on conflict do nothing`);
  const [row] = await rows<{ id: string }>(tx, sql`select id from credit_accounts where kind = 'system'`);
  if (!row) throw new Error('system credit account missing');
  return row.id;
}

export async function organizationPoolAccountId(
  tx: Tx,
  organizationId: string,
  pool: 'shared' | 'protected',
): Promise<string> {
  const [row] = await rows<{ id: string }>(
    tx,
    sql`select id from credit_accounts where organization_id = ${organizationId} and kind = ${pool}`,
  );
  if (!row) throw new Error(`organization ${organizationId} has no ${pool} pool`);
  return row.id;
}

/**
 * The balance of a person in one organization (CONTRACT §5: credits per membership), opened at 0 the first
 * time. The journal refuses credits into it unless the person is a member of the organization or invited
 * to it (CR008).
 */
export async function memberAccountId(tx: Tx, userId: string, organizationId: string): Promise<string> {
  const [id] = await memberAccountIds(tx, organizationId, [userId]);
  if (!id) throw new Error(`user ${userId} has no credit account in ${organizationId}`);
  return id;
}

/**
 * `memberAccountId` for several people of one organization, in the order asked. Opening comes before any
 * lock: a row another transaction inserts and commits while this one waits for a lock would not be seen by the
 * locking statement, so opening first waits for such an insert instead.
 */
export async function memberAccountIds(
  tx: Tx,
  organizationId: string,
  userIds: readonly string[],
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const ids = jsonParam(userIds);
  await tx.execute(sql`insert into credit_accounts (kind, user_id, organization_id)
    select 'user', value::uuid, ${organizationId}::uuid from json_array_elements_text(${ids})
    order by 2 on conflict do nothing`);
  const found = await rows<{ id: string; user_id: string }>(
    tx,
    sql`select id, user_id from credit_accounts where kind = 'user' and organization_id = ${organizationId}
        and user_id in (select value::uuid from json_array_elements_text(${ids}))`,
  );
  const accountOf = new Map(found.map((a) => [a.user_id, a.id]));
  return userIds.map((id) => accountOf.get(id.toLowerCase()) as string);
}
