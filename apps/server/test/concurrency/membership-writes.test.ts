import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { codeIn, lastMailTo, linkIn } from '../support/outbox';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/** CONTRACT §1 on the membership writes of issue 18: at once, no answer is a 500 and nothing is doubled. */
let t: TestApp;
let owner = '';
beforeAll(async () => {
  t = await createTestApp();
  owner = await sessionFor(t.db, t.world.users.owner.id);
});
afterAll(() => t.close());

const post = (url: string, payload: object, token?: string, ip = '198.51.100.1') =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {}, remoteAddress: ip });

describe('membership writes at the same time', () => {
  it('imports into two organizations that share new addresses: both succeed, one account per address', async () => {
    const people = Array.from({ length: 30 }, (_, i) => ({
      email: `shared${i}@race.test`,
      name: `Shared ${i}`,
      role: 'user',
    }));
    // The same addresses in the opposite order in the second file.
    const answers = await Promise.all([
      post('/api/user/bulk', { organizationId: t.world.orgs.schoolA, users: people }, owner),
      post('/api/user/bulk', { organizationId: t.world.orgs.schoolB, users: [...people].reverse() }, owner),
      post('/api/user/create', { ...people[0], organizationId: t.world.orgs.annex }, owner),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 201]);
    const accounts = await rows<{ n: string }>(
      t.db,
      sql`select count(*) as n from users where email like '%@race.test'`,
    );
    expect(Number(accounts[0]?.n)).toBe(30);
    // Each address is a member (new account) in one organization and invited in the others.
    const [held] = await rows<{ members: string; invited: string }>(
      t.db,
      sql`select (select count(*) from memberships m join users u on u.id = m.user_id where u.email like '%@race.test') as members,
                 (select count(*) from membership_invitations i where i.invited_email like '%@race.test') as invited`,
    );
    expect(Number(held?.members) + Number(held?.invited)).toBe(61);
  });

  it('an invitation code sent twice at once joins once; the other answer is a refusal, not a 500', async () => {
    const invited = await post(
      '/api/user/create',
      { email: 'owner@beta.test', name: 'Twice', organizationId: t.world.orgs.schoolB, role: 'user' },
      owner,
    );
    expect(invited.statusCode).toBe(201);
    const mail = await lastMailTo(t.db, 'owner@beta.test');
    const body = {
      email: 'owner@beta.test',
      organizationId: t.world.orgs.schoolB,
      code: codeIn(mail.text_body),
    };
    const answers = await Promise.all([
      post('/api/auth/invitation/accept', body, undefined, '198.51.100.2'),
      post('/api/auth/invitation/accept', body, undefined, '198.51.100.3'),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const memberships = await rows(
      t.db,
      sql`select 1 from memberships where user_id = ${t.world.users.betaOwner.id} and organization_id = ${t.world.orgs.schoolB}`,
    );
    expect(memberships).toHaveLength(1);
  });

  it('an email change confirmed twice at once applies once', async () => {
    const admin = await sessionFor(t.db, t.world.users.schoolAdmin.id);
    const asked = await post(
      `/api/user/${t.world.users.schoolAdmin.id}/update`,
      { name: 'Sid School', email: 'sid.new@school-a.test' },
      admin,
    );
    expect(asked.statusCode).toBe(200);
    const mail = await lastMailTo(t.db, 'sid.new@school-a.test');
    const [, , , userId, token] = linkIn(mail.text_body).pathname.split('/');
    const body = { userId, token, code: codeIn(mail.text_body) };
    const answers = await Promise.all([
      post('/api/auth/email/confirm', body, undefined, '198.51.100.4'),
      post('/api/auth/email/confirm', body, undefined, '198.51.100.5'),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const [account] = await rows<{ email: string }>(
      t.db,
      sql`select email from users where id = ${t.world.users.schoolAdmin.id}`,
    );
    expect(account?.email).toBe('sid.new@school-a.test');
  });

  it('removals and role changes of one invited person at once: no 500', async () => {
    const invited = await post(
      '/api/user/create',
      { email: 'admin@alpha.test', name: 'Ada Again', organizationId: t.world.orgs.schoolB, role: 'user' },
      owner,
    );
    const id = invited.json().id as string;
    const answers = await Promise.all([
      post('/api/user/remove', { organizationId: t.world.orgs.schoolB, userIds: [id] }, owner),
      post(
        `/api/user/${id}/update/role`,
        { role: 'organization_admin', organizationId: t.world.orgs.schoolB },
        owner,
      ),
      post('/api/user/remove', { organizationId: t.world.orgs.schoolB, userIds: [id] }, owner),
    ]);
    for (const answer of answers) expect([200, 404]).toContain(answer.statusCode);
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(1);
  });
});
