// Issue 16: the audit log's CSV export of 100,000 rows through the HTTP API on PostgreSQL, streamed. Prints
// the rows a second and the server process's resident memory before, at its peak during the export and
// after, next to an export of 10,000 rows: if the export held its rows, the peak would grow with them.
// BENCH_AUDIT_DATABASE_URL (default: allot_bench_audit on the local PostgreSQL) is recreated each run.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { rows } from '../apps/server/src/db/rows';
import { createSession } from '../apps/server/src/features/auth/sessions';
import { insertOrganization } from '../apps/server/src/features/organizations/tree';
import { recreateBenchDatabase } from './support/bench-database';
import { startServer } from './support/server';
import { BENCH_SESSION } from './support/session';

const SIZES = [10_000, 100_000];
const url = process.env.BENCH_AUDIT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/allot_bench_audit';
await (await recreateBenchDatabase('audit export', url)).end();

const database = await openPostgres(url, 2);
await migrate(database);
const db = database.db;
const organizations = await db.transaction(async (tx) => {
  const ids: string[] = [];
  for (const size of SIZES)
    ids.push(
      await insertOrganization(tx, {
        name: `Audit District ${size}`,
        type: 'district',
        phoneNumber: '+1 555 000 0000',
        parentId: null,
      }),
    );
  return ids;
});
const [owner] = await rows<{ id: string }>(
  db,
  sql`insert into users (email, name, email_verified_at) values ('owner@bench.test', 'Bench Owner', now()) returning id`,
);
for (const [i, size] of SIZES.entries()) {
  const organization = organizations[i];
  await db.execute(
    sql`insert into memberships (user_id, organization_id, role) values (${owner?.id}, ${organization}, 'organization_owner')`,
  );
  // Rows as the panel writes them: a role change each, with a name, before and after.
  await db.execute(sql`insert into audit_events
      (organization_id, actor_id, action, target_type, target_id, target_label, before, after, created_at)
    select ${organization}, ${owner?.id}, 'member_role_changed', 'member', gen_random_uuid()::text,
      'Teacher ' || n || ' <teacher' || n || '@bench.test>', '{"role":"user"}', '{"role":"organization_admin"}',
      now() - (n || ' seconds')::interval
    from generate_series(1, ${size}) n`);
}
const token = await createSession(db, owner?.id ?? '', BENCH_SESSION);
await database.close();

const server = await startServer({ DATABASE_URL: url });
const rssKb = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
};
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
try {
  // A first small export warms the server (JIT, connections) so that the figures below are the export's own.
  await (
    await fetch(`${server.url}/api/organization/${organizations[0]}/audit-log/export?to=2000-01-01`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).text();
  for (const [i, size] of SIZES.entries()) {
    const before = rssKb();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssKb());
    }, 20);
    const started = performance.now();
    const response = await fetch(`${server.url}/api/organization/${organizations[i]}/audit-log/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
    // Read as it comes and count lines; never hold the file.
    let lines = 0;
    let bytes = 0;
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      for (const ch of decoder.decode(chunk, { stream: true })) if (ch === '\n') lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssKb());
    const dataRows = lines - 1;
    if (dataRows !== size) throw new Error(`the export held ${dataRows} rows, not ${size}`);
    console.log(
      `audit log export, ${size.toLocaleString('en-US')} rows: ${seconds.toFixed(2)} s, ` +
        `${Math.round(dataRows / seconds).toLocaleString('en-US')} rows/s, ${(bytes / 1024 / 1024).toFixed(1)} MB; ` +
        `server RSS ${mb(before)} before, peak ${mb(peak)} (+${mb(peak - before)}), ${mb(rssKb())} after`,
    );
  }
} finally {
  await server.stop();
}
