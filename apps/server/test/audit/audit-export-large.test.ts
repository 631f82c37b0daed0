import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedInCalls } from '../support/calls';
import { createTestApp, type TestApp } from '../support/test-app';

const ROWS = 100_000;
let t: TestApp;
let call: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  call = await signedInCalls(t, ['owner']);
  // A year of changes in the district's school, as the services write them (written directly: fast).
  await t.db.execute(sql`insert into audit_events
      (organization_id, actor_id, action, target_type, target_id, target_label, before, after, created_at)
    select ${t.world.orgs.schoolA}, ${t.world.users.owner.id},
      case when i % 2 = 0 then 'member_role_changed' else 'member_updated' end, 'member', null, 'Person ' || i,
      '{"role":"user"}'::jsonb, '{"role":"organization_admin"}'::jsonb,
      now() - make_interval(mins => ${ROWS} - i)
    from generate_series(1, ${ROWS}) as i`);
}, 120_000);
afterAll(() => t.close());

it('exports 100,000 entries, every one once, newest first, and a filter’s half exactly', async () => {
  const url = `/api/organization/${t.world.orgs.alpha}/audit-log/export`;
  const started = Date.now();
  const all = await call.get('owner', url);
  const seconds = (Date.now() - started) / 1000;
  expect(all.statusCode).toBe(200);
  const lines = all.body.trimEnd().split('\r\n');
  expect(lines).toHaveLength(ROWS + 1);
  const labels = lines.slice(1).map((l) => l.split('","')[7]);
  expect(new Set(labels).size).toBe(ROWS);
  expect(labels[0]).toBe(`Person ${ROWS}`);
  expect(labels.at(-1)).toBe('Person 1');
  console.log(
    `audit export: ${ROWS} rows, ${(all.body.length / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s`,
  );

  const half = await call.get('owner', `${url}?action=member_role_changed`);
  expect(half.body.trimEnd().split('\r\n')).toHaveLength(ROWS / 2 + 1);
}, 300_000);
