import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { DEFAULT_INVITATIONS_PER_DAY } from '../../src/features/users/invitations';
import { RESENDS_PER_PERSON, RESENDS_PER_SESSION } from '../../src/features/users/resend-invitations';
import { hitRateLimit, rateLimitKey } from '../../src/lib/rate-limit';
import { signedInCalls } from '../support/calls';
import { codeIn, lastMailTo, mailsTo } from '../support/outbox';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD, sessionFor } from '../support/world';

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'admin', 'schoolAdmin', 'betaOwner']);
});
afterAll(() => t.close());

const resendPath = (organizationId: string, userId: string) =>
  `/api/organization/${organizationId}/users/${userId}/invitation/resend`;

/** Adds a person to the organization as the owner (a new address, or an account that exists). */
async function invite(organizationId: string, email: string, name = 'Invited Person') {
  const answer = await api.post('owner', '/api/user/create', { email, name, organizationId, role: 'user' });
  expect(answer.statusCode).toBe(201);
  return answer.json<{ id: string; status: string }>();
}

const verify = (email: string, code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/verify',
    payload: { email, code, password: 'a-brand-new-password' },
  });
const accept = (email: string, organizationId: string, code: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/invitation/accept',
    payload: { email, organizationId, code },
  });

describe('POST /api/organization/{id}/users/{userId}/invitation/resend', () => {
  it('mails a new account that has not set itself up a new invitation; the first code works on, once', async () => {
    const { schoolA } = t.world.orgs;
    const email = 'resend-new@alpha.test';
    const person = await invite(schoolA, email);
    expect(person.status).toBe('pending');
    const first = await lastMailTo(t.db, email);

    const answer = await api.post('schoolAdmin', resendPath(schoolA, person.id), {});
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ success: true });
    const mails = await mailsTo(t.db, email);
    expect(mails.map((m) => [m.kind, m.subject])).toEqual([
      ['invitation', 'You are invited to Allot for Alpha School A'],
      ['invitation', 'You are invited to Allot for Alpha School A'],
    ]);
    const second = mails[1];
    if (!second) throw new Error('no second mail');
    expect(second.text_body).toContain('/register/verify?email=resend-new%40alpha.test');

    // The code of the first mail still works (issue 33: a resend does not turn the first mail into a dead
    // end); once it is used, the second one is gone with it.
    const old = codeIn(first.text_body);
    const fresh = codeIn(second.text_body);
    expect((await verify(email, old)).json()).toEqual({ success: true });
    if (old !== fresh) expect((await verify(email, fresh)).statusCode).toBe(400);

    // Set up, the person is a member: nothing is pending any more.
    const after = await api.post('schoolAdmin', resendPath(schoolA, person.id), {});
    expect(after.statusCode).toBe(404);
    expect(await mailsTo(t.db, email)).toHaveLength(2);
  });

  it('mails an account that was invited to join a new invitation code; either code joins, once', async () => {
    const { schoolB } = t.world.orgs;
    const { email } = t.world.users.betaOwner;
    const person = await invite(schoolB, email, 'Typed Name');
    expect(person.status).toBe('pending');
    // Named by the invitation, not by the account's id (CONTRACT §3).
    expect(person.id).not.toBe(t.world.users.betaOwner.id);
    const first = await lastMailTo(t.db, email);
    expect(first.kind).toBe('membership_invitation');

    const answer = await api.post('admin', resendPath(schoolB, person.id), {});
    expect(answer.statusCode).toBe(200);
    const second = await lastMailTo(t.db, email);
    expect(second.id).not.toBe(first.id);
    expect(second.kind).toBe('membership_invitation');
    expect(second.subject).toBe('Join Alpha School B on Allot');
    // The one who sent it again is named.
    expect(second.text_body).toContain(t.world.users.admin.name);

    // Both codes are live; the newer joins, and the older is then used up with it.
    const old = codeIn(first.text_body);
    const fresh = codeIn(second.text_body);
    expect((await accept(email, schoolB, fresh)).json()).toEqual({ success: true, organizationId: schoolB });
    if (old !== fresh) expect((await accept(email, schoolB, old)).statusCode).toBe(400);
    const joined = await rows(
      t.db,
      sql`select 1 from memberships where user_id = ${t.world.users.betaOwner.id} and organization_id = ${schoolB}`,
    );
    expect(joined).toHaveLength(1);
    expect((await api.post('admin', resendPath(schoolB, person.id), {})).statusCode).toBe(404);
  });

  it('mails an unverified account that has a password the verification again, without asking for one', async () => {
    const { alpha } = t.world.orgs;
    const { unverified } = t.world.users;
    const answer = await api.post('owner', resendPath(alpha, unverified.id), {});
    expect(answer.statusCode).toBe(200);
    const mail = await lastMailTo(t.db, unverified.email);
    expect(mail.kind).toBe('verification');
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email: unverified.email, code: codeIn(mail.text_body) },
    });
    expect(verified.json()).toEqual({ success: true });
    expect((await t.login(unverified.email, PASSWORD)).length).toBeGreaterThan(0);
  });

  it('is 404 for a member who joined, an unknown person, a person pending elsewhere, and another tenant', async () => {
    const { schoolA, schoolB, alpha } = t.world.orgs;
    const pending = await invite(schoolA, 'resend-elsewhere@alpha.test');
    const cases = [
      ['owner', resendPath(schoolA, t.world.users.teacher.id)],
      ['owner', resendPath(schoolA, '00000000-0000-4000-8000-000000000000')],
      ['owner', resendPath(schoolA, 'not-an-id')],
      ['owner', resendPath(schoolB, pending.id)],
      ['betaOwner', resendPath(schoolA, pending.id)],
      ['betaOwner', resendPath(alpha, t.world.users.unverified.id)],
    ] as const;
    for (const [who, url] of cases) {
      const answer = await api.post(who, url, {});
      expect([url, answer.statusCode]).toEqual([url, 404]);
      expect(answer.json()).toEqual({ error: 'not_found', message: APP_MSG.notFound });
    }
    expect(await mailsTo(t.db, 'resend-elsewhere@alpha.test')).toHaveLength(1);
  });

  it(`sends one person at most ${RESENDS_PER_PERSON} in fifteen minutes`, async () => {
    const { annex } = t.world.orgs;
    const email = 'resend-often@alpha.test';
    const person = await invite(annex, email);
    for (let i = 0; i < RESENDS_PER_PERSON; i++) {
      expect((await api.post('owner', resendPath(annex, person.id), {})).statusCode).toBe(200);
    }
    const refused = await api.post('owner', resendPath(annex, person.id), {});
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'rate_limited', message: APP_MSG.resentRecently });
    expect(await mailsTo(t.db, email)).toHaveLength(1 + RESENDS_PER_PERSON);
  });

  it('resends at the same moment, with a cancellation among them: no 500, each answered 200 mailed once', async () => {
    const { schoolB } = t.world.orgs;
    const email = 'resend-race@alpha.test';
    const person = await invite(schoolB, email);
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => api.post('owner', resendPath(schoolB, person.id), {})),
      api.post('owner', '/api/user/remove', { organizationId: schoolB, userIds: [person.id] }),
    ]);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.at(-1)).toBe(200);
    const resends = statuses.slice(0, -1);
    // Before the cancellation: sent, up to the per-person limit; after it: nobody pending (404).
    for (const status of resends) expect([200, 404, 429]).toContain(status);
    const sent = resends.filter((s) => s === 200).length;
    expect(sent).toBeLessThanOrEqual(RESENDS_PER_PERSON);
    expect(await mailsTo(t.db, email)).toHaveLength(1 + sent);
  });

  it(`lets one session send at most ${RESENDS_PER_SESSION} again in fifteen minutes`, async () => {
    const { annex } = t.world.orgs;
    const people = [];
    for (let i = 0; i < Math.ceil((RESENDS_PER_SESSION + 1) / RESENDS_PER_PERSON); i++) {
      people.push(await invite(annex, `resend-session-${i}@alpha.test`));
    }
    const headers = bearer(await sessionFor(t.db, t.world.users.owner.id));
    const statuses: number[] = [];
    for (let i = 0; i <= RESENDS_PER_SESSION; i++) {
      const person = people[i % people.length];
      if (!person) throw new Error('no person');
      const answer = await t.app.inject({ method: 'POST', url: resendPath(annex, person.id), headers });
      statuses.push(answer.statusCode);
      if (answer.statusCode === 429) expect(answer.json().message).toBe(APP_MSG.tooManyResends);
    }
    expect(statuses).toEqual([...Array(RESENDS_PER_SESSION).fill(200), 429]);
  });

  it('counts against the organization’s invitations a day', async () => {
    const { schoolB } = t.world.orgs;
    const email = 'resend-day@alpha.test';
    const person = await invite(schoolB, email);
    const used = await hitRateLimit(t.db, rateLimitKey('invitations', schoolB), 24 * 3600, 0);
    await hitRateLimit(
      t.db,
      rateLimitKey('invitations', schoolB),
      24 * 3600,
      DEFAULT_INVITATIONS_PER_DAY - used,
    );
    const refused = await api.post('owner', resendPath(schoolB, person.id), {});
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'rate_limited',
      message: APP_MSG.tooManyInvitations(DEFAULT_INVITATIONS_PER_DAY),
    });
    expect(await mailsTo(t.db, email)).toHaveLength(1);
  });
});
