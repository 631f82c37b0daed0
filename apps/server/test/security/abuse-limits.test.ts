import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { IMPORTS_PER_SESSION } from '../../src/features/users/add-users';
import { mailsTo } from '../support/outbox';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/** Abuse limits of the security review: rows 7 and 8, the invitation allowance, and forgot's timing. */
let t: TestApp;
const INVITATIONS_PER_DAY = 5;
beforeAll(async () => {
  t = await createTestApp({ invitationsPerDay: INVITATIONS_PER_DAY });
});
afterAll(() => t.close());

const post = (url: string, payload: object, token?: string, ip = '203.0.113.7') =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {}, remoteAddress: ip });

describe('row 8: the wrong-code limit of a reset counts the account, however its id is spelled', () => {
  it('answers 429 after five wrong codes that alternate the case of the user id', async () => {
    const id = t.world.users.admin.id;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const userId = i % 2 === 0 ? id.toUpperCase() : id.toLowerCase();
      const response = await post(
        '/api/auth/password/check',
        { userId, token: 'made-up', code: '000000' },
        undefined,
        `203.0.113.${100 + i}`,
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    expect(
      (
        await post(
          '/api/auth/password/check',
          { userId: id, token: 'x', code: '000000' },
          undefined,
          '203.0.113.99',
        )
      ).json(),
    ).toMatchObject({ error: 'rate_limited', message: APP_MSG.tooManyCodeAttempts });
  });
});

describe('invitations per organization per day', () => {
  it('refuses the import that would pass the allowance, whole, with a clear 429; the allowance holds across calls', async () => {
    const owner = await sessionFor(t.db, t.world.users.owner.id);
    const people = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        email: `invitee${from + i}@cap.test`,
        name: 'Invitee',
        role: 'user',
      }));
    const tooMany = await post(
      '/api/user/bulk',
      { organizationId: t.world.orgs.schoolB, users: people(0, 6) },
      owner,
    );
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json()).toEqual({
      error: 'rate_limited',
      message: APP_MSG.tooManyInvitations(INVITATIONS_PER_DAY),
    });
    const written = await rows(t.db, sql`select 1 from users where email like '%@cap.test'`);
    expect(written).toEqual([]);

    const allowed = await post(
      '/api/user/bulk',
      { organizationId: t.world.orgs.schoolB, users: people(0, 4) },
      owner,
    );
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().added).toHaveLength(4);
    const oneMore = await post(
      '/api/user/create',
      { email: 'invitee4@cap.test', name: 'Invitee', organizationId: t.world.orgs.schoolB, role: 'user' },
      owner,
    );
    expect(oneMore.statusCode).toBe(201);
    const past = await post(
      '/api/user/create',
      { email: 'invitee5@cap.test', name: 'Invitee', organizationId: t.world.orgs.schoolB, role: 'user' },
      owner,
    );
    expect(past.statusCode).toBe(429);
    // Another organization has its own allowance.
    const elsewhere = await post(
      '/api/user/create',
      { email: 'invitee5@cap.test', name: 'Invitee', organizationId: t.world.orgs.annex, role: 'user' },
      owner,
    );
    expect(elsewhere.statusCode).toBe(201);
  });
});

describe('row 7: bulk previews and imports are limited per session', () => {
  it(`answers 429 after ${IMPORTS_PER_SESSION} previews of one session; another session is not held up`, async () => {
    const busy = await sessionFor(t.db, t.world.users.schoolAdmin.id);
    const body = {
      organizationId: t.world.orgs.schoolA,
      users: [{ email: 'p@alpha.test', name: 'P', role: 'user' }],
    };
    for (let i = 0; i < IMPORTS_PER_SESSION; i++) {
      expect((await post('/api/user/bulk/preview', body, busy)).statusCode).toBe(200);
    }
    const refused = await post('/api/user/bulk/preview', body, busy);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'rate_limited', message: APP_MSG.tooManyImports });
    expect((await post('/api/user/bulk', body, busy)).statusCode).toBe(429);
    const other = await sessionFor(t.db, t.world.users.schoolAdmin.id);
    expect((await post('/api/user/bulk/preview', body, other)).statusCode).toBe(200);
  });
});

describe('password/forgot answers alike for every address', () => {
  it('with the same answer, whether or not the address has an account', async () => {
    const known = await post('/api/auth/password/forgot', { email: 'owner@alpha.test' });
    const unknown = await post('/api/auth/password/forgot', { email: 'nobody@nowhere.test' });
    const strip = (headers: Record<string, unknown>) => {
      const { date: _date, ...rest } = headers;
      return rest;
    };
    expect([known.statusCode, known.body, strip(known.headers)]).toEqual([
      unknown.statusCode,
      unknown.body,
      strip(unknown.headers),
    ]);
    await t.app.background.settle();
    expect(await mailsTo(t.db, 'owner@alpha.test')).toHaveLength(1);
    expect(await mailsTo(t.db, 'nobody@nowhere.test')).toEqual([]);
  });

  it.skipIf(process.env.ALLOT_TEST_DB !== 'postgres')(
    'without waiting for the work it starts: the answer comes while that work is held up',
    async () => {
      // Another connection holds the row the work must write first (its mail limit): the work waits,
      // and the answer must not.
      const url = new URL(process.env.TEST_DATABASE_URL ?? '');
      const [database] = await rows<{ name: string }>(t.db, sql`select current_database() as name`);
      url.pathname = `/${database?.name}`;
      const blocker = new pg.Client({ connectionString: url.toString() });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query(
          `insert into rate_limits (key, window_started_at, count) values ('forgot:email:admin@alpha.test', now(), 0)
           on conflict (key) do update set count = rate_limits.count`,
        );
        const answer = await post('/api/auth/password/forgot', { email: 'admin@alpha.test' });
        expect(answer.json()).toEqual({ success: true });
        expect(await mailsTo(t.db, 'admin@alpha.test')).toEqual([]);
      } finally {
        await blocker.query('rollback');
        await blocker.end();
      }
      await t.app.background.settle();
      expect(await mailsTo(t.db, 'admin@alpha.test')).toHaveLength(1);
    },
  );
});
