import { setTimeout as sleep } from 'node:timers/promises';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@allot/domain/errors';
import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { ledgerViolations } from '../support/ledger';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * Issue 30: PostgreSQL backends terminated under a burst of requests (`pg_terminate_backend` of every
 * connection of the database, again and again, as a failover or an operator would). Every answer is a
 * success or a `503` with `Retry-After`, never a 500; every credit move sent with an Idempotency-Key is
 * applied exactly once when sent again after a 503; the ledger balances.
 */
const onPostgres = process.env.ALLOT_TEST_DB === 'postgres';

let t: TestApp;
let owner = '';
let killer: pg.Client;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.login(t.world.users.owner.email, PASSWORD);
  if (onPostgres) {
    const [row] = await rows<{ db: string }>(t.db, sql`select current_database() as db`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = `/${row?.db}`;
    killer = new pg.Client({ connectionString: url.toString() });
    await killer.connect();
  }
});
afterAll(async () => {
  await killer?.end();
  await t.close();
});

interface Sent {
  kind: 'keyed' | 'unkeyed' | 'read';
  key?: string;
  url: string;
  body?: object;
}

const send = (request: Sent) =>
  t.app.inject({
    method: request.body ? 'POST' : 'GET',
    url: request.url,
    headers: { ...bearer(owner), ...(request.key ? { 'idempotency-key': request.key } : {}) },
    ...(request.body ? { payload: request.body } : {}),
  });

describe.runIf(onPostgres)('terminated database connections under a burst of requests', () => {
  it('answers every request with a success or a 503 with Retry-After, and applies every move once', async () => {
    const alpha = t.world.orgs.alpha;
    const [top] = await rows<{ seq: string }>(
      t.db,
      sql`select coalesce(max(seq), 0)::text as seq from credit_transactions`,
    );
    const startSeq = top?.seq ?? '0';

    const move = (i: number) => ({
      amount: 1,
      organizationId: alpha,
      fromPool: i % 2 === 0 ? 'shared' : 'protected',
      toPool: i % 2 === 0 ? 'protected' : 'shared',
    });
    const reads = [
      `/api/organization/${alpha}?licenses=true&subOrganizations=true&credits=true&permissionsAndRole=true`,
      `/api/organization/${alpha}/credit-log?limit=20`,
      `/api/organization/${alpha}/users?limit=20`,
      `/api/organization/${alpha}/sub-organizations?limit=20`,
      '/api/organization/search?search=alpha',
    ];
    const requests: Sent[] = Array.from({ length: 360 }, (_, i) => {
      if (i % 3 === 0)
        return { kind: 'keyed', key: `burst-${i}`, url: '/api/credit/transfer/pools', body: move(i) };
      if (i % 3 === 1) return { kind: 'unkeyed', url: '/api/credit/transfer/pools', body: move(i) };
      return { kind: 'read', url: reads[i % reads.length] as string };
    });

    // The killer: every connection of the test database but its own, every 100–250 ms, until the burst ends.
    let bursting = true;
    let busyKilled = 0;
    const killing = (async () => {
      while (bursting) {
        const { rows: killed } = await killer.query<{ busy: string }>(
          `select count(*) filter (where state <> 'idle') as busy from (
             select state, pg_terminate_backend(pid) from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid()) ended`,
        );
        busyKilled += Number(killed[0]?.busy ?? 0);
        await sleep(100 + Math.random() * 150);
      }
    })();

    const answers = new Map<Sent, Awaited<ReturnType<typeof send>>>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++] as Sent;
        answers.set(request, await send(request));
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    bursting = false;
    await killing;

    const byStatus = new Map<number, number>();
    for (const answer of answers.values())
      byStatus.set(answer.statusCode, (byStatus.get(answer.statusCode) ?? 0) + 1);
    // What the burst met, for the record when it fails.
    const seen = `statuses ${JSON.stringify(Object.fromEntries(byStatus))}, busy backends killed ${busyKilled}`;
    expect(busyKilled, seen).toBeGreaterThan(0);
    // Without the retries inside the server, every request whose backend was ended would fail.
    expect(byStatus.get(503) ?? 0, seen).toBeLessThan(busyKilled / 2);
    for (const [request, answer] of answers) {
      expect([200, 503], `${request.url} ${answer.body}`).toContain(answer.statusCode);
      if (answer.statusCode === 503) {
        expect(answer.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        expect(answer.json().error).toBe('unavailable');
      }
    }

    // After the burst, each keyed move that was answered 503 is sent again with its key until it is answered.
    for (const request of requests.filter((r) => r.kind === 'keyed')) {
      let answer = answers.get(request);
      while (answer?.statusCode === 503) answer = await send(request);
      expect(answer?.statusCode).toBe(200);
    }
    const unkeyed = requests.filter((r) => r.kind === 'unkeyed').map((r) => answers.get(r));
    const unkeyedApplied = unkeyed.filter((a) => a?.statusCode === 200).length;
    const unkeyedMaybe = unkeyed.filter(
      (a) => a?.statusCode === 503 && a.json().message === APP_MSG.commitOutcomeUnknown,
    ).length;
    const keyed = requests.filter((r) => r.kind === 'keyed').length;

    const [journal] = await rows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from credit_transactions where seq > ${startSeq}`,
    );
    const posted = Number(journal?.n);
    // Every keyed move once; every unkeyed move answered 200 once, none answered "nothing was changed".
    expect(posted, seen).toBeGreaterThanOrEqual(keyed + unkeyedApplied);
    expect(posted, seen).toBeLessThanOrEqual(keyed + unkeyedApplied + unkeyedMaybe);
    expect(await ledgerViolations(t.db)).toEqual([]);
  }, 120_000);
});
