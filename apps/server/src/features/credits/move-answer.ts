import type { CreditAction, CreditMoveResponse, CreditPool } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import type { Tx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { InsufficientCreditsError, type JournalLine, postCreditTransactionReporting } from './journal';
import { auditMoveStatement } from './move-audit';
import type { OrganizationParty, UserParty } from './parties';

/** The spec's refusals of a move (`422`). */
export const refuse = {
  pool: (pool: CreditPool) => AppError.of('insufficient_credits', MSG.notEnoughCredits(pool)),
  source: (name: string, available: number) =>
    AppError.of('insufficient_credits', MSG.sourceOnlyHas(name, available), { available }),
};

/** Names in a description: a few, then how many more. */
export function namesOf(parties: readonly { name: string }[]): string {
  const shown = parties.slice(0, 5).map((p) => p.name);
  const more = parties.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more.toLocaleString('en-US')} more` : shown.join(', ');
}

export function count(amount: number): string {
  return amount.toLocaleString('en-US');
}

export interface Move {
  action: CreditAction;
  actorId: string;
  description: string;
  lines: JournalLine[];
  /** Credits per target (or per source of a reclaim) and in all. */
  amount: number;
  total: number;
  organizations: OrganizationParty[];
  users: UserParty[];
  /** A move between two members' balances: the organization they are members of (its audit log records it). */
  transferOrganizationId?: string;
  /** The refusal when an account would go below zero (the database names the account and its balance). */
  refusal: (accountId: string, balance: number) => AppError;
}

/**
 * Posts a move with its audit entries, in one statement, and answers it with the balances it left for every
 * party (the posting reports them). An account that would go below zero becomes the move's own refusal (the
 * spec's `422`); nothing is written.
 */
export async function postMove(tx: Tx, move: Move): Promise<CreditMoveResponse> {
  const report = reportedAccounts(move);
  let posted: Awaited<ReturnType<typeof postCreditTransactionReporting>>;
  try {
    const audit = auditMoveStatement(move);
    posted = await postCreditTransactionReporting(tx, move, report, audit ? { afterward: [audit] } : {});
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw move.refusal(error.accountId, error.balance);
    throw error;
  }
  return moveAnswer(move, posted.id, posted.balances);
}

/** The accounts whose balances a move answers: every party's (both pools of each organization). */
export function reportedAccounts(move: Move): string[] {
  return [...move.organizations.flatMap((o) => [o.shared, o.protected]), ...move.users.map((u) => u.account)];
}

/** A move's answer: its journal transaction and the balances it left for every party, each party once. */
export function moveAnswer(
  move: Move,
  transactionId: string,
  balanceOf: ReadonlyMap<string, number>,
): CreditMoveResponse {
  const seen = new Set<string>();
  const once = <T extends { id: string }>(parties: T[]) =>
    parties.filter((p) => !seen.has(p.id) && seen.add(p.id));
  return {
    transactionId,
    action: move.action,
    amount: move.amount,
    total: move.total,
    organizations: once(move.organizations).map((o) => ({
      id: o.id,
      name: o.name,
      credits: { shared: balanceOf.get(o.shared) ?? 0, protected: balanceOf.get(o.protected) ?? 0 },
    })),
    users: once(move.users).map((u) => ({ id: u.id, name: u.name, credits: balanceOf.get(u.account) ?? 0 })),
  };
}
