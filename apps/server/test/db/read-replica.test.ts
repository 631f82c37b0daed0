import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { type Database, openPostgres } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import type { ReplicaOptions } from '../../src/db/read-replica';
import { rows } from '../../src/db/rows';
import { readsRouted, replicaFallbacks } from '../../src/lib/metrics';
import {
  type ReplicaCluster,
  replicaClusterUnavailable,
  startReplicaCluster,
} from '../support/replica-cluster';
import { createWorld, sessionFor, type World } from '../support/world';

/**
 * DATABASE_READ_URL (issue 35, docs/decisions/018-read-replica.md): a real primary and a real streaming replica
 * of it, from Debian's PostgreSQL binaries, on their own ports and data directories. The reads that tolerate a
 * replica go there when it has replayed the primary's position; a person always reads their own writes; a
 * replica that falls behind or goes away sends the reads back to the primary, and they come back to it after.
 */
const skipped =
  process.env.ALLOT_TEST_DB !== 'postgres'
    ? 'it runs in the server:postgres project (with TEST_DATABASE_URL)'
    : replicaClusterUnavailable();

describe('DATABASE_READ_URL', () => {
  it('is refused without DATABASE_URL: the embedded PGlite has no replica', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/allot' })).toThrow(
      'DATABASE_READ_URL needs DATABASE_URL',
    );
    const config = loadConfig({
      DATABASE_URL: 'postgres://primary/allot',
      DATABASE_READ_URL: 'postgres://replica/allot',
    });
    expect(config.databaseReadUrl).toBe('postgres://replica/allot');
    expect(loadConfig({ DATABASE_URL: 'postgres://primary/allot' }).databaseReadUrl).toBeUndefined();
  });
});

/** How the reads that may use the replica were routed so far, in this process (the metric's series). */
async function routed() {
  const { values } = await readsRouted.get();
  const at = (target: string, reason: string) =>
    values.find((v) => v.labels.target === target && v.labels.reason === reason)?.value ?? 0;
  return {
    replica: at('replica', 'caught_up'),
    behind: at('primary', 'behind'),
    down: at('primary', 'down'),
  };
}
const fallbacks = async () => (await replicaFallbacks.get()).values[0]?.value ?? 0;

const until = async (what: string, done: () => Promise<boolean>, ms = 15_000) => {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
};

describe.skipIf(skipped)(
  `a real primary and streaming replica${skipped ? ` (skipped: ${skipped})` : ''}`,
  () => {
    let cluster: ReplicaCluster;
    let world: World;
    const opened: { database: Database; app: App }[] = [];
    const logged: string[] = [];

    /** A server process of its own: its own pools to the primary and the replica, its own routing state. */
    async function serverProcess(options: ReplicaOptions) {
      const database = await openPostgres(cluster.primaryUrl, 5, {
        url: cluster.replicaUrl,
        log: (line) => logged.push(line),
        ...options,
      });
      const app = await buildApp({ db: database.db, reads: database.reads, metricsToken: 'replica-metrics' });
      opened.push({ database, app });
      return { database, app };
    }

    beforeAll(async () => {
      cluster = await startReplicaCluster();
      const setup = await openPostgres(cluster.primaryUrl, 2);
      try {
        await migrate(setup);
        world = await createWorld(setup.db);
      } finally {
        await setup.close();
      }
    }, 180_000);

    afterAll(async () => {
      for (const { app, database } of opened) {
        await app.close();
        await database.close();
      }
      cluster?.stop();
    });

    const get = (app: App, token: string, url: string) =>
      app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const post = (app: App, token: string, url: string, payload: object) =>
      app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
    const rename = async (app: App, token: string, name: string) => {
      const answer = await post(app, token, `/api/organization/${world.orgs.alpha}/update`, {
        name,
        type: 'district',
        phoneNumber: '+1 555 000 1111',
      });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    const nameRead = async (app: App, token: string) => {
      const answer = await get(app, token, `/api/organization/${world.orgs.alpha}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ name: string }>().name;
    };

    it('answers every read routed to it from the replica, which logs them', async () => {
      // Patient: on a busy test machine the replica's replay may take a moment; the routing is what is checked.
      const { app, database } = await serverProcess({ maxWaitMs: 5_000 });
      const owner = await sessionFor(database.db, world.users.owner.id);
      const admin = await sessionFor(database.db, world.users.systemAdmin.id);
      const invoice = await post(app, owner, '/api/invoice/create', {
        organizationId: world.orgs.alpha,
        kind: 'credits',
        credits: 1000,
        customerEmail: 'owner@alpha.test',
      });
      expect(invoice.statusCode, invoice.body).toBe(201);
      const invoiceId = invoice.json<{ id: string }>().id;
      await cluster.replicaCaughtUp();

      const org = `/api/organization/${world.orgs.alpha}`;
      const reads: [string, string][] = [
        [owner, '/api/organization'],
        [owner, '/api/organization/search?search=alpha'],
        [owner, `${org}?licenses=true&subOrganizations=true&credits=true&permissionsAndRole=true`],
        [owner, `${org}/sub-organizations`],
        [owner, `${org}/sub-organizations?key=daysLeft`],
        [owner, `/api/organization/${world.orgs.schoolA}/parent-organizations`],
        [owner, `${org}/credits`],
        [owner, '/api/user/search?search=tia'],
        [owner, `${org}/users?withCredits=true`],
        [owner, `${org}/users?scope=subtree`],
        [owner, `${org}/credit-log`],
        [owner, `${org}/credit-log/export`],
        [owner, `${org}/audit-log`],
        [owner, `${org}/audit-log/export`],
        [owner, `${org}/license-log`],
        [owner, `${org}/license-usage`],
        [owner, `${org}/credit-usage`],
        [owner, `${org}/requests?direction=outgoing`],
        [owner, `${org}/invoices`],
        [owner, `/api/invoice/${invoiceId}`],
        [admin, '/api/invoices'],
        [owner, `${org}/integration-keys`],
      ];
      for (const [token, url] of reads) {
        const before = await routed();
        const answer = await get(app, token, url);
        expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
        const after = await routed();
        expect({ url, ...after }, url).toEqual({ url, ...before, replica: before.replica + 1 });
      }

      // The replica's own log: the organization read (its session looked up in the same query) ran there.
      const organizationReads = () =>
        cluster
          .replicaLog()
          .split('\n')
          .filter((l) => /execute .*with caller as/.test(l));
      const seen = organizationReads().length;
      expect(await nameRead(app, owner)).toBe('Alpha District');
      await until('the replica logs the read', async () => organizationReads().length === seen + 1);

      // Reads that decide a write, and writes, stay on the primary: none of them is counted.
      const before = await routed();
      expect((await get(app, owner, `/api/user/${world.users.admin.id}/edit-rights`)).statusCode).toBe(200);
      expect((await get(app, owner, `${org}/integration-settings`)).statusCode).toBe(200);
      expect((await get(app, owner, '/api/auth/mfa')).statusCode).toBe(200);
      await rename(app, owner, 'Alpha District');
      expect(await routed()).toEqual(before);

      // The operator sees it: the metric's series in GET /api/metrics.
      const metrics = await app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: 'Bearer replica-metrics' },
      });
      expect(metrics.body).toMatch(/^allot_db_reads_total\{target="replica",reason="caught_up"\} \d+/m);
    });

    it('lets a person read their own writes at once, from any server process', async () => {
      // The replica applies each commit 300 ms late: a read straight after a write finds it not replayed yet.
      cluster.stopReplica();
      await cluster.startReplica('-c recovery_min_apply_delay=300ms');
      const writer = await serverProcess({ maxWaitMs: 5_000 });
      const reader = await serverProcess({ maxWaitMs: 5_000 });
      const owner = await sessionFor(writer.database.db, world.users.owner.id);
      const before = await routed();
      for (let i = 1; i <= 5; i++) {
        await rename(writer.app, owner, `Alpha District ${i}`);
        // Another process, straight after the write's answer: it waits for the replica to replay it.
        expect(await nameRead(reader.app, owner)).toBe(`Alpha District ${i}`);
        const moved = await post(writer.app, owner, '/api/credit/assign/organizations', {
          amount: i,
          sourceOrganizationId: world.orgs.alpha,
          fromOrganizationPoolType: 'shared',
          targetOrganizationIds: [world.orgs.schoolB],
          toOrganizationPoolType: 'shared',
        });
        expect(moved.statusCode, moved.body).toBe(200);
        const log = await get(
          reader.app,
          owner,
          `/api/organization/${world.orgs.schoolB}/credit-log?limit=1`,
        );
        expect(log.json<{ data: { credits: number }[] }>().data[0]?.credits).toBe(i);
      }
      // Each read waited for the replica to replay the write, and was answered there.
      const after = await routed();
      expect(after.replica - before.replica).toBe(10);
      expect(after.behind + after.down).toBe(before.behind + before.down);
      await rename(writer.app, owner, 'Alpha District');
      cluster.stopReplica();
      await cluster.startReplica();
    });

    it('reads the primary while the replica falls behind, and the replica again once it catches up', async () => {
      const { app, database } = await serverProcess({ maxWaitMs: 50, retryAfterMs: 300 });
      const owner = await sessionFor(database.db, world.users.owner.id);
      await cluster.replicaCaughtUp();
      await cluster.onReplica('select pg_wal_replay_pause()');
      try {
        await rename(app, owner, 'Alpha District, paused');
        const before = await routed();
        // The replica has not replayed the rename: the read goes to the primary, and shows it.
        expect(await nameRead(app, owner)).toBe('Alpha District, paused');
        expect(await routed()).toEqual({ ...before, behind: before.behind + 1 });
        // Meanwhile the next reads go to the primary without waiting for the replica.
        const started = Date.now();
        for (let i = 0; i < 5; i++) expect(await nameRead(app, owner)).toBe('Alpha District, paused');
        expect(Date.now() - started).toBeLessThan(2_000);
        expect((await routed()).behind).toBe(before.behind + 6);
      } finally {
        await cluster.onReplica('select pg_wal_replay_resume()');
      }
      await cluster.replicaCaughtUp();
      await until('reads go to the replica again', async () => {
        const before = (await routed()).replica;
        expect(await nameRead(app, owner)).toBe('Alpha District, paused');
        return (await routed()).replica === before + 1;
      });
      await rename(app, owner, 'Alpha District');
    });

    it('reads the primary at once when the replica goes away, and the replica again once it is back', async () => {
      const { app, database } = await serverProcess({ maxWaitMs: 50, retryAfterMs: 300 });
      const owner = await sessionFor(database.db, world.users.owner.id);
      await cluster.replicaCaughtUp();
      expect(await nameRead(app, owner)).toBe('Alpha District');
      // A read that got the replica's handle just before it stopped.
      const handle = await database.reads?.reads();
      if (!handle) throw new Error('no replica');
      const downBefore = (await routed()).down;
      const fallbacksBefore = await fallbacks();

      cluster.stopReplica();
      try {
        // Its statement runs again on the primary.
        expect(await rows<{ one: number }>(handle, sql`select 1 as one`)).toEqual([{ one: 1 }]);
        expect(await fallbacks()).toBe(fallbacksBefore + 1);
        const started = Date.now();
        for (let i = 0; i < 10; i++) expect(await nameRead(app, owner)).toBe('Alpha District');
        // No request waits for the replica that is gone: ten reads, well under a connection timeout each.
        expect(Date.now() - started).toBeLessThan(3_000);
        expect((await routed()).down).toBe(downBefore + 10);
        expect(logged.some((l) => l.startsWith('read replica unavailable'))).toBe(true);
        // A write and its read still work.
        await rename(app, owner, 'Alpha District, replica down');
        expect(await nameRead(app, owner)).toBe('Alpha District, replica down');
      } finally {
        await cluster.startReplica();
      }
      await until('reads go to the replica again', async () => {
        const before = (await routed()).replica;
        expect(await nameRead(app, owner)).toBe('Alpha District, replica down');
        return (await routed()).replica === before + 1;
      });
      expect(logged).toContain('read replica available again');
      await rename(app, owner, 'Alpha District');
    });
  },
);
