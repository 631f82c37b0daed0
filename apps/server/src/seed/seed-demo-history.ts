import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { rows } from '../db/rows';
import {
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../features/credits/journal';
import { DEMO_ACCOUNTS } from './demo-accounts';

/** Days of consumption history before today (UTC), so that the 90-day chart is full and the forecast real. */
export const DEMO_HISTORY_DAYS = 120;
/** Top-ups come every this many days, each the exact amount the days until the next one consume. */
const TOP_UP_EVERY = 14;

/** The demo's classroom use: a school's credits per school day, before the noise (weekends: a tenth). */
const DAILY_USE: Record<string, number> = {
  'Northside Elementary': 70,
  'Northside Annex': 15,
  'Lakeside Middle': 55,
  'Hillcrest High': 40,
};

/** mulberry32: the same history on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * When the demo's starting credits are dated: the day before its history begins, so the chart's "received"
 * shows them there, not as one bar of today that dwarfs the months of use.
 */
export const demoStartDate = () => dayOf(DEMO_HISTORY_DAYS + 1, 6);

/** A moment of the demo's past: `daysAgo` UTC days before today, at `hour`:`minute` UTC. */
export function dayOf(daysAgo: number, hour: number, minute = 0) {
  const d = new Date();
  d.setUTCHours(hour, minute, 0, 0);
  d.setUTCDate(d.getUTCDate() - daysAgo);
  return d;
}

/**
 * The demo's credit use over the last `DEMO_HISTORY_DAYS` complete UTC days (decision 014, "Demo data"): every
 * school day the teachers of each school consume from its shared pool (the posting's actor is the teacher, so
 * the licences screen knows who used it), and every two weeks the system tops the pool up by exactly what the
 * next two weeks consume. Balance-neutral: every pool and balance ends where the rest of the demo put it, so
 * nothing else of the demo changes. Posted through the journal, dated in the past.
 */
export async function seedDemoHistory(tx: Tx, organizations: ReadonlyMap<string, string>): Promise<number> {
  const random = seeded(16_2026);
  const system = await systemAccountId(tx);
  let postings = 0;
  for (const [name, perDay] of Object.entries(DAILY_USE)) {
    const organizationId = organizations.get(name);
    if (!organizationId) throw new Error(`demo organization ${name} missing`);
    const teacherEmails = DEMO_ACCOUNTS.filter((a) => a.role === 'user' && a.organization === name).map(
      (a) => a.email,
    );
    const teachers = (
      await rows<{ id: string }>(
        tx,
        sql`select id from users where email in (select value from json_array_elements_text(${JSON.stringify(teacherEmails)}::json)) order by email`,
      )
    ).map((r) => r.id);
    const shared = await organizationPoolAccountId(tx, organizationId, 'shared');
    await tx.execute(
      sql`insert into credit_accounts (kind, organization_id) values ('consumed', ${organizationId}) on conflict do nothing`,
    );
    const [consumed] = await rows<{ id: string }>(
      tx,
      sql`select id from credit_accounts where organization_id = ${organizationId} and kind = 'consumed'`,
    );
    if (!consumed) throw new Error(`consumed account of ${name} missing`);

    // The whole plan first: each top-up is the sum of the days it covers.
    const uses = Array.from({ length: DEMO_HISTORY_DAYS }, (_, i) => {
      const daysAgo = DEMO_HISTORY_DAYS - i;
      const weekday = dayOf(daysAgo, 12).getUTCDay();
      const weekend = weekday === 0 || weekday === 6;
      // A slow start that grows: the forecast's 28 days burn faster than the first months.
      const growth = 0.6 + (0.6 * i) / DEMO_HISTORY_DAYS;
      const noise = 0.7 + random() * 0.6;
      return { daysAgo, credits: Math.round(perDay * growth * noise * (weekend ? 0.1 : 1)) };
    });
    for (let start = 0; start < uses.length; start += TOP_UP_EVERY) {
      const period = uses.slice(start, start + TOP_UP_EVERY);
      const total = period.reduce((sum, u) => sum + u.credits, 0);
      if (total > 0) {
        await postCreditTransaction(tx, {
          action: 'system_allocation',
          actorId: null,
          description: 'Demo data: fortnightly top-up',
          lines: [
            { accountId: system, amount: -total },
            { accountId: shared, amount: total },
          ],
          createdAt: dayOf(period[0]?.daysAgo ?? 0, 7),
        });
        postings++;
      }
      for (const use of period) {
        if (use.credits === 0) continue;
        await postCreditTransaction(tx, {
          action: 'consumption',
          actorId: teachers.length > 0 ? (teachers[use.daysAgo % teachers.length] ?? null) : null,
          description: `Demo data: lessons of the day`,
          lines: [
            { accountId: shared, amount: -use.credits },
            { accountId: consumed.id, amount: use.credits },
          ],
          createdAt: dayOf(use.daysAgo, 10 + Math.floor(random() * 6), Math.floor(random() * 60)),
        });
        postings++;
      }
    }
  }
  return postings;
}
