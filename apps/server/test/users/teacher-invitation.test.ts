import { APP_MSG } from '@allot/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCalls } from '../support/calls';
import { codeIn, lastMailTo, linkIn } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, item 1: a teacher's invitation is written for a teacher (what Allot is to them, that they sign in to
 * the classroom product), and its link says so (`for=teacher`) for the page to end on "you are done"; owners and
 * admins keep the panel's mail.
 */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner']);
});
afterAll(() => t.close());

async function add(organizationId: string, email: string, role: 'user' | 'organization_admin') {
  const answer = await api.post('owner', '/api/user/create', {
    email,
    name: 'Some Person',
    organizationId,
    role,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return lastMailTo(t.db, email);
}

describe('the invitation of a teacher', () => {
  it('tells a new teacher what Allot is to them and that they sign in to the classroom product', async () => {
    const mail = await add(t.world.orgs.schoolA, 'new-teacher@alpha.test', 'user');
    expect(mail.kind).toBe('invitation');
    expect(mail.subject).toBe('You are invited to Allot for Alpha School A');
    expect(mail.text_body).toContain('Alpha School A added you as a teacher.');
    expect(mail.text_body).toContain(
      'a licence for the classroom product and the AI credits they spend in it',
    );
    expect(mail.text_body).toContain('You sign in to the classroom product as usual, not to Allot');
    expect(mail.text_body).not.toContain('the panel');
    expect(mail.html_body).toContain('classroom product');
    const link = linkIn(mail.text_body);
    expect(link.pathname).toBe('/register/verify');
    // `new=1`: a new account chooses its password with the code (issue 33, item 12).
    expect(Object.fromEntries(link.searchParams)).toEqual({
      email: 'new-teacher@alpha.test',
      new: '1',
      for: 'teacher',
    });

    // The code verifies as any invitation's, with the password the account has none of yet.
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: {
        email: 'new-teacher@alpha.test',
        code: codeIn(mail.text_body),
        password: 'teacher-password-1',
      },
    });
    expect(verified.json()).toEqual({ success: true });
    // And sign in refuses them, as the mail and the page say: they use the classroom product.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new-teacher@alpha.test', password: 'teacher-password-1' },
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toMatchObject({ error: 'no_panel_access', message: APP_MSG.noPanelAccess });
  });

  it('keeps the panel’s mail for a new admin', async () => {
    const mail = await add(t.world.orgs.schoolA, 'new-admin@alpha.test', 'organization_admin');
    expect(mail.text_body).toContain('the panel for licences and AI credits for Alpha School A');
    expect(mail.text_body).not.toContain('classroom product');
    expect(Object.fromEntries(linkIn(mail.text_body).searchParams)).toEqual({
      email: 'new-admin@alpha.test',
      new: '1',
    });
  });

  it('writes an existing teacher’s invitation to another school for a teacher, not an admin’s', async () => {
    // Tia teaches at School A; invited to School B as a teacher.
    const { teacher, betaOwner } = t.world.users;
    const mail = await add(t.world.orgs.schoolB, teacher.email, 'user');
    expect(mail.kind).toBe('membership_invitation');
    expect(mail.text_body).toContain('invited you to join Alpha School B as a teacher');
    expect(mail.text_body).toContain('You sign in to the classroom product as usual, not to Allot');
    expect(linkIn(mail.text_body).searchParams.get('for')).toBe('teacher');

    // Beta's owner uses the panel: invited as a teacher, the mail stays the panel's.
    const owner = await add(t.world.orgs.schoolB, betaOwner.email, 'user');
    expect(owner.text_body).toContain('invited your Allot account to join Alpha School B as Teacher');
    expect(owner.text_body).not.toContain('classroom product');
    expect(linkIn(owner.text_body).searchParams.get('for')).toBeNull();
  });

  it('sends a teacher’s new verification code in a teacher’s words', async () => {
    await add(t.world.orgs.schoolA, 'late-teacher@alpha.test', 'user');
    const resent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify/resend',
      payload: { email: 'late-teacher@alpha.test' },
    });
    expect(resent.statusCode).toBe(200);
    await t.app.background.settle();
    const mail = await lastMailTo(t.db, 'late-teacher@alpha.test');
    expect(mail.kind).toBe('verification');
    expect(mail.text_body).toContain('You sign in to the classroom product as usual, not to Allot');
    expect(linkIn(mail.text_body).searchParams.get('for')).toBe('teacher');
  });
});

describe('the invitation of an account that exists', () => {
  it('asks an account that has a password for the code alone, and one never set up for a password with it', async () => {
    // Invited to School A, never set up (no password); then invited to School B: the second mail's page asks
    // for the password with the code, instead of sending the code alone to be told `password_required`.
    await add(t.world.orgs.schoolA, 'not-set-up@alpha.test', 'organization_admin');
    const second = await add(t.world.orgs.schoolB, 'not-set-up@alpha.test', 'organization_admin');
    expect(second.kind).toBe('membership_invitation');
    const link = linkIn(second.text_body);
    expect(link.pathname).toBe('/invitation');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      email: 'not-set-up@alpha.test',
      organization: t.world.orgs.schoolB,
      new: '1',
    });
    const withoutPassword = await t.app.inject({
      method: 'POST',
      url: '/api/auth/invitation/accept',
      payload: {
        email: 'not-set-up@alpha.test',
        organizationId: t.world.orgs.schoolB,
        code: codeIn(second.text_body),
      },
    });
    expect(withoutPassword.statusCode).toBe(400);
    expect(withoutPassword.json()).toMatchObject({ error: 'password_required' });

    // An account with a password (Beta's owner) only enters the code: the link says nothing of a password.
    const existing = await add(t.world.orgs.annex, t.world.users.betaOwner.email, 'organization_admin');
    expect(existing.kind).toBe('membership_invitation');
    expect(linkIn(existing.text_body).searchParams.get('new')).toBeNull();
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/invitation/accept',
      payload: {
        email: t.world.users.betaOwner.email,
        organizationId: t.world.orgs.annex,
        code: codeIn(existing.text_body),
      },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });
});
