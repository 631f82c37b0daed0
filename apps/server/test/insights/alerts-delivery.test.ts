import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { deliverCreditAlerts } from '../../src/features/insights/alert-delivery';
import { processOutbox } from '../../src/features/mail/outbox';
import { smtpTransport } from '../../src/features/mail/transports';
import { mint } from '../support/integration';
import { type SmtpCatcher, startSmtpCatcher } from '../support/smtp-catcher';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';
import { alertCalls } from './alerts-calls';

/**
 * Low-balance alerts from the journal to the mail (issue 16 item 3; decision 014): a posting that crosses a
 * threshold leaves one event; deliverCreditAlerts turns it into one mail per owner and admin, once; a top-up
 * re-arms. Alpha District: owner Olga, admin Ada, and Nia, an admin who never confirmed her address.
 */
let t: TestApp;
let calls: ReturnType<typeof alertCalls>;
let smtp: SmtpCatcher;
const settings = { publicUrl: TEST_PUBLIC_URL };
const OWNER = 'owner@alpha.test';
const ADMIN = 'admin@alpha.test';

beforeAll(async () => {
  t = await createTestApp();
  calls = alertCalls(t);
  smtp = await startSmtpCatcher();
});
afterAll(async () => {
  await smtp.stop();
  await t.close();
});
beforeEach(async () => {
  await t.db.execute(sql`delete from mail_outbox`);
});

const events = async () =>
  rows<{ organization_id: string; level: string; balance: string }>(
    t.db,
    sql`select organization_id, level::text, balance::text from credit_alert_events order by created_at`,
  );
const subjects = async (email: string) => (await calls.alertMails(email)).map((m) => m.subject);

describe('low-balance alert delivery', () => {
  it('sends one mail to the owner and each admin the first time the pool crosses a threshold, then nothing', async () => {
    const alpha = t.world.orgs.alpha;
    await calls.settings(alpha, [{ kind: 'credits', value: 100 }]);

    await calls.debit(alpha, 350); // 500 → 150: above 100
    expect(await deliverCreditAlerts(t.db, settings)).toBe(0);
    expect(await calls.alertMails(OWNER)).toHaveLength(0);

    await calls.debit(alpha, 60); // 150 → 90: crossed
    expect(await events()).toMatchObject([{ organization_id: alpha, level: '100', balance: '90' }]);
    expect(await deliverCreditAlerts(t.db, settings)).toBe(1);
    expect(await events()).toEqual([]);

    const [mail, ...more] = await calls.alertMails(OWNER);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe('Alpha District: the shared pool is low');
    expect(mail?.text_body).toContain('Hello Olga Owner,');
    expect(mail?.text_body).toContain('The shared pool of Alpha District is down to 90 credits.');
    expect(mail?.text_body).toContain('It reached a low-balance alert set for Alpha District: 100 credits.');
    expect(mail?.text_body).toContain(`${TEST_PUBLIC_URL}/${alpha}`);
    expect(mail?.text_body).toContain('You get this email as the owner of Alpha District in Allot.');
    expect(mail?.html_body).toContain(`href="${TEST_PUBLIC_URL}/${alpha}"`);
    expect(await subjects(ADMIN)).toEqual(['Alpha District: the shared pool is low']);
    expect((await calls.alertMails(ADMIN))[0]?.text_body).toContain('as an admin of Alpha District');
    // Not an invitee who never confirmed the address, not the admin of a school below.
    expect(await calls.alertMails('new@alpha.test')).toHaveLength(0);
    expect(await calls.alertMails('admin@school-a.test')).toHaveLength(0);

    // Further postings below the level send nothing more.
    await calls.debit(alpha, 10);
    await calls.debit(alpha, 30);
    expect(await deliverCreditAlerts(t.db, settings)).toBe(0);
    expect(await calls.alertMails(OWNER)).toHaveLength(1);
    expect(await calls.alertMails(ADMIN)).toHaveLength(1);
  });

  it('re-arms a number of credits only once a top-up brings the pool back above it', async () => {
    const alpha = t.world.orgs.alpha; // shared 50, the 100-credit threshold fired
    await calls.topUp(alpha, 5); // 55: still below 100
    await calls.debit(alpha, 10); // 45
    expect(await deliverCreditAlerts(t.db, settings)).toBe(0);
    expect(await calls.alertMails(OWNER)).toHaveLength(0);

    await calls.topUp(alpha, 100); // 145: re-armed
    expect((await calls.get(alpha)).json().levels).toEqual([
      { kind: 'credits', value: 100, level: 100, fired: false },
    ]);
    await calls.debit(alpha, 50); // 95
    expect(await deliverCreditAlerts(t.db, settings)).toBe(1);
    expect(await calls.alertMails(OWNER)).toHaveLength(1);
    expect(await calls.alertMails(ADMIN)).toHaveLength(1);
    await calls.debit(alpha, 45); // back to 50
  });

  it('sends again after a top-up re-armed the threshold; a percentage is of the pool after the top-up', async () => {
    const alpha = t.world.orgs.alpha; // shared 50
    await calls.settings(alpha, [
      { kind: 'credits', value: 100 },
      { kind: 'percent_of_last_topup', value: 10 },
    ]);
    await calls.topUp(alpha, 590); // 50 → 640: reference 640, levels 100 and 64
    expect(await deliverCreditAlerts(t.db, settings)).toBe(0);

    await calls.debit(alpha, 560); // 640 → 80: the credits threshold only
    expect(await deliverCreditAlerts(t.db, settings)).toBe(1);
    let owner = await calls.alertMails(OWNER);
    expect(owner).toHaveLength(1);
    expect(owner[0]?.text_body).toContain('down to 80 credits.');
    expect(owner[0]?.text_body).toContain(': 100 credits.');

    await calls.debit(alpha, 20); // 80 → 60: 10 % of 640 = 64
    expect(await deliverCreditAlerts(t.db, settings)).toBe(1);
    owner = await calls.alertMails(OWNER);
    expect(owner).toHaveLength(2);
    expect(owner[1]?.text_body).toContain(
      'It reached a low-balance alert set for Alpha District: 10 % of the 640 credits after the last top-up: 64 credits.',
    );
    expect(await calls.alertMails(ADMIN)).toHaveLength(2);
  });

  it('leaves two events when one posting crosses two thresholds', async () => {
    const alpha = t.world.orgs.alpha; // shared 60
    await calls.topUp(alpha, 600); // → 660: the reference
    await calls.settings(alpha, [
      { kind: 'credits', value: 300 },
      { kind: 'percent_of_last_topup', value: 20 },
    ]); // levels 300 and 132
    await calls.debit(alpha, 560); // 660 → 100: both
    expect(await events()).toHaveLength(2);
    expect(await deliverCreditAlerts(t.db, settings)).toBe(2);
    const bodies = (await calls.alertMails(OWNER)).map((m) => m.text_body);
    expect(bodies).toHaveLength(2);
    expect(bodies.some((b) => b.includes(': 300 credits.'))).toBe(true);
    expect(
      bodies.some((b) => b.includes('20 % of the 660 credits after the last top-up: 132 credits.')),
    ).toBe(true);
    expect(await calls.alertMails(ADMIN)).toHaveLength(2);
  });

  it('sends nothing for an organization without thresholds', async () => {
    const beta = t.world.orgs.beta;
    await mint(t.db, { sharedOf: beta }, 100);
    const token = await t.login('owner@beta.test', 'correct-horse-battery');
    const debit = await t.app.inject({
      method: 'POST',
      url: '/api/credit/transfer/pools',
      headers: { authorization: `Bearer ${token}` },
      payload: { organizationId: beta, amount: 99, fromPool: 'shared', toPool: 'protected' },
    });
    expect(debit.statusCode, debit.body).toBe(200);
    expect(await events()).toEqual([]);
    expect(await deliverCreditAlerts(t.db, settings)).toBe(0);
    expect(await calls.alertMails('owner@beta.test')).toHaveLength(0);
  });

  it('reaches the owner through SMTP with the mail worker', async () => {
    const alpha = t.world.orgs.alpha; // shared 100
    await calls.topUp(alpha, 300); // → 400
    await calls.settings(alpha, [{ kind: 'percent_of_last_topup', value: 25 }]); // level 100
    await calls.debit(alpha, 305); // → 95
    expect(await deliverCreditAlerts(t.db, settings)).toBe(1);

    const transport = smtpTransport(smtp.url, 'Allot <no-reply@panel.test>');
    expect(await processOutbox(t.db, transport)).toEqual({ delivered: 2, failed: 0 });
    transport.close();
    const mail = await smtp.waitFor(OWNER);
    expect(mail.subject).toBe('Alpha District: the shared pool is low');
    expect(mail.text).toContain('The shared pool of Alpha District is down to 95 credits.');
    expect(mail.text).toContain('25 % of the 400 credits after the last top-up: 100 credits.');
    expect(mail.html).toContain(`${TEST_PUBLIC_URL}/${alpha}`);
    await smtp.waitFor(ADMIN);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([ADMIN, OWNER]);
  });
});
