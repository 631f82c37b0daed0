import { REQUESTS_PER_DAY } from '@allot/domain/requests';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { mailsTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';
import { poolsOf, requestCalls, schoolWithAdmin } from './request-support';

/**
 * Requests at the same moment (CONTRACT §1: never a 500 for requests that came at once; §11): two approvals of one
 * request, an approval and a decline, and more requests at once than a day allows. On PostgreSQL these really run
 * side by side.
 */
let t: TestApp;
let api: ReturnType<typeof requestCalls>;

beforeAll(async () => {
  t = await createTestApp();
  api = requestCalls(t);
});
afterAll(() => t.close());

describe('requests at the same moment', () => {
  it('two approvals of one request: exactly one wins, the credits move once', async () => {
    const school = await schoolWithAdmin(t, t.world.orgs.alpha, 'Race School');
    const asked = await api.asked(school.admin.id, school.id, { kind: 'credits', amount: 30 });
    const district = await poolsOf(t, t.world.orgs.alpha);
    const answers = await Promise.all([api.approve('owner', asked.id), api.approve('admin', asked.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await poolsOf(t, school.id)).shared).toBe(30);
    expect((await poolsOf(t, t.world.orgs.alpha)).shared).toBe(district.shared - 30);
    const [moves] = await rows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from audit_events where action = 'credits_moved' and organization_id = ${school.id}`,
    );
    expect(Number(moves?.n)).toBe(1);
    const decided = (await mailsTo(t.db, school.admin.email)).filter((m) => m.kind === 'request_approved');
    expect(decided).toHaveLength(1);
  });

  it('an approval and a decline at once: one of them, never both', async () => {
    const school = await schoolWithAdmin(t, t.world.orgs.alpha, 'Split School');
    const asked = await api.asked(school.admin.id, school.id, { kind: 'credits', amount: 5 });
    const answers = await Promise.all([
      api.approve('owner', asked.id),
      api.decline('admin', asked.id, 'Not this term.'),
      api.cancel(school.admin.id, asked.id),
    ]);
    expect(answers.map((a) => a.statusCode).filter((s) => s === 200)).toHaveLength(1);
    expect(answers.map((a) => a.statusCode).filter((s) => s === 409)).toHaveLength(2);
    const [row] = await rows<{ status: string }>(
      t.db,
      sql`select status from organization_requests where id = ${asked.id}`,
    );
    expect((await poolsOf(t, school.id)).shared).toBe(row?.status === 'approved' ? 5 : 0);
  });

  it(`more requests at once than a day allows: exactly ${REQUESTS_PER_DAY} are opened`, async () => {
    const school = await schoolWithAdmin(t, t.world.orgs.alpha, 'Rush School');
    const answers = await Promise.all(
      Array.from({ length: REQUESTS_PER_DAY + 4 }, (_, i) =>
        api.ask(school.admin.id, school.id, { kind: 'credits', amount: i + 1 }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(REQUESTS_PER_DAY);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const [opened] = await rows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from organization_requests where organization_id = ${school.id}`,
    );
    expect(Number(opened?.n)).toBe(REQUESTS_PER_DAY);
  });
});
