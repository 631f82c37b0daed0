import type { Tx } from '../../db/client';
import { type AuditRecord, recordAudit } from '../audit/record';
import type { Move } from './move-answer';

/**
 * The audit entries of a move made in the panel (decision 014): one `credits_moved` per organization whose
 * pools it changed, with those pools before and after, so each organization's log says what it gained or
 * lost; a move between two members' balances is recorded in the organization whose balances they are
 * (CONTRACT §5: credits per membership), with their balances there. Every entry names the journal transaction
 * (the credit log entry of the same id).
 */
export async function auditMove(
  tx: Tx,
  move: Move,
  posted: { id: string; balances: Map<string, number> },
): Promise<void> {
  const change = new Map<string, number>();
  for (const line of move.lines) change.set(line.accountId, (change.get(line.accountId) ?? 0) + line.amount);
  const after = (account: string) => posted.balances.get(account) ?? 0;
  const before = (account: string) => after(account) - (change.get(account) ?? 0);
  const entry = (
    organizationId: string,
    b: Record<string, unknown>,
    a: Record<string, unknown>,
  ): AuditRecord => ({
    organizationId,
    actorId: move.actorId,
    action: 'credits_moved',
    target: { type: 'credit_transaction', id: posted.id, label: move.description },
    before: b,
    after: a,
    creditTransactionId: posted.id,
  });

  const seen = new Set<string>();
  const records: AuditRecord[] = [];
  for (const org of move.organizations) {
    if (seen.has(org.id)) continue;
    seen.add(org.id);
    records.push(
      entry(
        org.id,
        { shared: before(org.shared), protected: before(org.protected) },
        { shared: after(org.shared), protected: after(org.protected) },
      ),
    );
  }
  if (records.length === 0 && move.transferOrganizationId) {
    const balances = (of: (account: string) => number) =>
      Object.fromEntries(move.users.map((u) => [u.name, of(u.account)]));
    records.push(entry(move.transferOrganizationId, balances(before), balances(after)));
  }
  await recordAudit(tx, records);
}
