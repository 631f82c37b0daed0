import { sql } from 'drizzle-orm';
import type { Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';

/*
 * A plain reference of decision 014's definitions, for the roll-up's tests: it scans the whole journal in
 * JavaScript and walks `organizations.parent_id` (not the closure table the roll-up joins).
 */

export type UsageRow = { received: number; handedDown: number; consumed: number };

export async function referenceUsage(db: Tx): Promise<Map<string, UsageRow>> {
  const orgs = await rows<{ id: string; parent_id: string | null }>(
    db,
    sql`select id, parent_id from organizations`,
  );
  const parent = new Map(orgs.map((o) => [o.id, o.parent_id]));
  const ancestorsOrSelf = (id: string): string[] => {
    const chain: string[] = [];
    for (let at: string | null | undefined = id; at; at = parent.get(at)) chain.push(at);
    return chain;
  };
  const journal = await rows<{
    id: string;
    created_at: string;
    lines: { kind: string; org: string | null; amount: number }[];
  }>(
    db,
    sql`select t.id, to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as created_at,
          json_agg(json_build_object('kind', a.kind, 'org', a.organization_id, 'amount', e.amount)) as lines
        from credit_transactions t join credit_entries e on e.transaction_id = t.id
        join credit_accounts a on a.id = e.account_id group by t.id`,
  );
  const out = new Map<string, UsageRow>();
  const add = (org: string, day: string, field: keyof UsageRow, amount: number) => {
    const key = `${org} ${day}`;
    const row = out.get(key) ?? { received: 0, handedDown: 0, consumed: 0 };
    row[field] += Number(amount);
    out.set(key, row);
  };
  for (const t of journal) {
    const day = t.created_at.slice(0, 10);
    const isPool = (kind: string) => kind === 'shared' || kind === 'protected';
    const debited = new Map<string, number>();
    for (const l of t.lines) {
      if (isPool(l.kind) && l.amount < 0)
        debited.set(l.org as string, (debited.get(l.org as string) ?? 0) - l.amount);
    }
    const fromPeople = t.lines.some((l) => l.kind === 'user' && l.amount < 0);
    const insideDebited = new Set([...debited.keys()].flatMap(ancestorsOrSelf));
    for (const l of t.lines) {
      if (isPool(l.kind) && l.amount > 0 && !fromPeople) {
        for (const x of ancestorsOrSelf(l.org as string))
          if (!insideDebited.has(x)) add(x, day, 'received', l.amount);
      }
      if (l.kind === 'consumed' && l.amount > 0) {
        for (const x of ancestorsOrSelf(l.org as string)) add(x, day, 'consumed', l.amount);
      }
    }
    for (const [a, gave] of debited) {
      const down = t.lines
        .filter(
          (l) =>
            l.amount > 0 &&
            (l.kind === 'user' ||
              (isPool(l.kind) && l.org !== a && ancestorsOrSelf(l.org as string).includes(a))),
        )
        .reduce((s, l) => s + Number(l.amount), 0);
      const handed = Math.min(gave, down);
      if (handed > 0) for (const x of ancestorsOrSelf(a)) add(x, day, 'handedDown', handed);
    }
  }
  for (const [key, row] of out) if (!row.received && !row.handedDown && !row.consumed) out.delete(key);
  return out;
}

/** `credit_usage_days` as the roll-up left it, rows of zeros left out. */
export async function rolledUpUsage(db: Tx): Promise<Map<string, UsageRow>> {
  const found = await rows<{ organization_id: string; day: string; r: string; h: string; c: string }>(
    db,
    sql`select organization_id, to_char(day, 'YYYY-MM-DD') as day, received::text as r,
          handed_down::text as h, consumed::text as c from credit_usage_days
        where received <> 0 or handed_down <> 0 or consumed <> 0`,
  );
  return new Map(
    found.map((r) => [
      `${r.organization_id} ${r.day}`,
      { received: Number(r.r), handedDown: Number(r.h), consumed: Number(r.c) },
    ]),
  );
}

export function sorted(map: Map<string, UsageRow>) {
  return [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export async function queued(db: Tx): Promise<number> {
  const [row] = await rows<{ n: string }>(db, sql`select count(*)::text as n from credit_usage_queue`);
  return Number(row?.n);
}
