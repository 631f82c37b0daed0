import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { lockOrganization } from '../../src/features/organization-access/locks';
import { lockMembers } from '../../src/features/users/member-guards';
import { signedInCalls } from '../support/calls';
import { deadlocksRetried } from '../support/deadlocks';
import { conservationViolations, ledgerViolations } from '../support/ledger';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/**
 * Pairs of writes that met in a circle of locks (issue 31), each set up so that they meet at the worst moment:
 * a transaction of the test holds a row until the request it stands in front of waits, then goes on. Taking
 * their locks in the one order of organization-access/locks.ts (credit accounts, organizations, memberships),
 * neither waits for the other in a circle: no deadlock, which the server would retry and count. PostgreSQL
 * only: PGlite runs one transaction at a time.
 */
const onPostgres = process.env.ALLOT_TEST_DB === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'systemAdmin']);
});
afterAll(async () => {
  if (onPostgres) await t.close();
});

/**
 * A transaction of the test that takes `first`, then holds on until released, then runs `then` and commits:
 * `held` resolves once `first` is done.
 */
function heldTransaction<T>(first: (tx: Tx) => Promise<unknown>, then: (tx: Tx) => Promise<T>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = () => {};
  const firstDone = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const done = t.db.transaction(async (tx) => {
    await first(tx);
    holding();
    await released;
    return then(tx);
  });
  return { held: Promise.race([firstDone, done.then(() => undefined)]), release, done };
}

/** Waits until `count` sessions of this database wait for a lock, or `enough()` says to go on. */
async function waitersAtLeast(count: number, enough: () => boolean = () => false) {
  for (let poll = 0; !enough(); poll++) {
    const [row] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if ((row?.n ?? 0) >= count) return;
    if (poll > 400) throw new Error(`fewer than ${count} sessions wait for a lock`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function accountId(organizationId: string | null, kind: string): Promise<string> {
  const [row] = await rows<{ id: string }>(
    t.db,
    organizationId
      ? sql`select id from credit_accounts where organization_id = ${organizationId} and kind = ${kind}`
      : sql`select id from credit_accounts where kind = ${kind}`,
  );
  return (row as { id: string }).id;
}

async function newMember(name: string, organizationId: string): Promise<string> {
  const [row] = await rows<{ id: string }>(
    t.db,
    sql`insert into users (email, name, email_verified_at) values (${`${name}@lock-order.test`}, ${name}, now())
        returning id`,
  );
  const id = (row as { id: string }).id;
  await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
    values (${id}, ${organizationId}, 'user')`);
  return id;
}

describe.runIf(onPostgres)('writes that lock the same rows take them in one order (locks.ts)', () => {
  let deadlocksBefore = 0;
  beforeEach(() => {
    deadlocksBefore = deadlocksRetried();
  });
  beforeAll(async () => {
    const { alpha, schoolA } = t.world.orgs;
    const toSchoolA = await api.post('owner', '/api/credit/assign/organizations', {
      amount: 200,
      sourceOrganizationId: alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [schoolA],
      toOrganizationPoolType: 'shared',
    });
    expect(toSchoolA.statusCode, toSchoolA.body).toBe(200);
  });

  it('credits to a member, while a change of that member holds the organization: the journal waits for the organization before it holds the membership', async () => {
    // The journal held the membership (key share) and then waited for the organization, while the change,
    // which holds the organization, waited to lock the membership for update (migration 0033).
    const { schoolA } = t.world.orgs;
    const teacher = t.world.users.teacher.id;
    const change = heldTransaction(
      (tx) => lockOrganization(tx, schoolA),
      (tx) => lockMembers(tx, schoolA, [teacher]),
    );
    await change.held;
    const move = api.post('owner', '/api/credit/assign/users', {
      amount: 10,
      userIds: [teacher],
      organizationId: schoolA,
      fromOrganizationPoolType: 'shared',
    });
    await waitersAtLeast(1);
    change.release();
    const [members, answer] = await Promise.all([change.done, move]);
    expect(members.map((m) => m.userId)).toEqual([teacher]);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(deadlocksRetried() - deadlocksBefore).toBe(0);
  });

  it('a removal of a member, while a change of that member holds the organization: the removal waits for the organization before it locks the membership', async () => {
    // The removal took `key share` on the organization, locked the membership, and then needed the
    // organization's row (its count of users, its pool) held by the change, which waited for the membership.
    const { schoolA } = t.world.orgs;
    const leaving = await newMember('leaving', schoolA);
    const given = await api.post('owner', '/api/credit/assign/users', {
      amount: 5,
      userIds: [leaving],
      organizationId: schoolA,
      fromOrganizationPoolType: 'shared',
    });
    expect(given.statusCode, given.body).toBe(200);
    const change = heldTransaction(
      (tx) => lockOrganization(tx, schoolA),
      (tx) => lockMembers(tx, schoolA, [leaving]),
    );
    await change.held;
    const removal = api.post('owner', '/api/user/remove', { organizationId: schoolA, userIds: [leaving] });
    await waitersAtLeast(1);
    change.release();
    const [members, answer] = await Promise.all([change.done, removal]);
    expect(members.map((m) => m.userId)).toEqual([leaving]);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().creditsReturned).toBe(5);
    expect(deadlocksRetried() - deadlocksBefore).toBe(0);
  });

  it('a purchase of credits fulfilled while a credit move of its organization runs: the fulfilment takes the accounts before the organization, and only `key share` of it', async () => {
    // The fulfilment held the organization (`share`) and then waited for an account the move held, while
    // the move held that account and waited to update the organization.
    const { alpha } = t.world.orgs;
    const invoice = await api.post('owner', '/api/invoice/create', {
      customerEmail: 'billing@alpha.test',
      organizationId: alpha,
      kind: 'credits',
      credits: 1000,
      creditPool: 'protected',
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    // The purchase posts to the system account and Alpha's protected pool, in id order: the test holds the
    // first of the two; the move takes the second and then needs Alpha's row.
    const system = await accountId(null, 'system');
    const pool = await accountId(alpha, 'protected');
    const [first, second] = [system, pool].sort();
    const blocker = heldTransaction(
      (tx) => tx.execute(sql`select id from credit_accounts where id = ${first} for no key update`),
      async () => undefined,
    );
    await blocker.held;
    const fulfil = api.post('systemAdmin', `/api/invoice/${invoice.json().id}/fulfil`, { method: 'free' });
    await waitersAtLeast(1);
    let moved = false;
    const move = (
      second === pool
        ? api.post('owner', '/api/credit/transfer/pools', {
            amount: 1,
            organizationId: alpha,
            fromPool: 'shared',
            toPool: 'protected',
          })
        : api.post('systemAdmin', '/api/credit/allocate/system', {
            amount: 1,
            organizationId: alpha,
            toPool: 'shared',
            description: 'Lock order',
          })
    ).finally(() => {
      moved = true;
    });
    await waitersAtLeast(2, () => moved);
    blocker.release();
    const [, fulfilled, answer] = await Promise.all([blocker.done, fulfil, move]);
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(deadlocksRetried() - deadlocksBefore).toBe(0);
  });

  it('a purchase of credits fulfilled while its organization is deleted: one waits for the other, the invoice is void', async () => {
    // The fulfilment held the organization (`share`) and waited for its pool, which the delete held while it
    // waited to lock the organization for update.
    const { alpha } = t.world.orgs;
    const created = await api.post('owner', '/api/organization/create', {
      name: 'Short-lived School',
      phoneNumber: '+1 555 000 0000',
      type: 'school',
      parentOrganizationId: alpha,
    });
    expect(created.statusCode, created.body).toBe(201);
    const leaf = created.json().id as string;
    const invoice = await api.post('owner', '/api/invoice/create', {
      customerEmail: 'billing@alpha.test',
      organizationId: leaf,
      kind: 'credits',
      credits: 1000,
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const owner = await t.login(t.world.users.owner.email, PASSWORD);
    // The delete locks the school's accounts, then waits for its parent's row, held here.
    const blocker = heldTransaction(
      (tx) => lockOrganization(tx, alpha),
      async () => undefined,
    );
    await blocker.held;
    const deleted = t.app.inject({
      method: 'DELETE',
      url: `/api/organization/${leaf}/delete`,
      headers: bearer(owner),
    });
    await waitersAtLeast(1);
    const fulfil = api.post('systemAdmin', `/api/invoice/${invoice.json().id}/fulfil`, { method: 'free' });
    await waitersAtLeast(2);
    blocker.release();
    const [, gone, fulfilled] = await Promise.all([blocker.done, deleted, fulfil]);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(fulfilled.statusCode, fulfilled.body).toBe(409);
    expect(deadlocksRetried() - deadlocksBefore).toBe(0);
  });

  it('a root organization deleted while credits are minted into it: the delete holds the system account, where its pools go, from the start', async () => {
    // The delete locked the root's accounts and only later, posting its pools back, the system account, which
    // a mint into the root held while it waited for the root's pool.
    const created = await api.post('systemAdmin', '/api/organization/create', {
      name: 'Short-lived Network',
      phoneNumber: '+1 555 000 0000',
      type: 'district',
    });
    expect(created.statusCode, created.body).toBe(201);
    const root = created.json().id as string;
    for (const toPool of ['shared', 'protected']) {
      const minted = await api.post('systemAdmin', '/api/credit/allocate/system', {
        amount: 50,
        organizationId: root,
        toPool,
        description: 'Lock order',
      });
      expect(minted.statusCode, minted.body).toBe(200);
    }
    // The mint takes the system account and the pool in id order: a pool after the system account makes it
    // hold the system account while it waits for the pool, which the delete holds.
    const system = await accountId(null, 'system');
    const pools = { shared: await accountId(root, 'shared'), protected: await accountId(root, 'protected') };
    const toPool = pools.shared > system ? 'shared' : 'protected';
    const admin = await t.login(t.world.users.systemAdmin.email, PASSWORD);
    // The delete locks the root's accounts, then waits for the root's row, held here.
    const blocker = heldTransaction(
      (tx) => lockOrganization(tx, root),
      async () => undefined,
    );
    await blocker.held;
    const deleted = t.app.inject({
      method: 'DELETE',
      url: `/api/organization/${root}/delete`,
      headers: bearer(admin),
    });
    await waitersAtLeast(1);
    let minted = false;
    const mint = api
      .post('systemAdmin', '/api/credit/allocate/system', {
        amount: 1,
        organizationId: root,
        toPool,
        description: 'Lock order',
      })
      .finally(() => {
        minted = true;
      });
    await waitersAtLeast(2, () => minted);
    blocker.release();
    const [, gone, answer] = await Promise.all([blocker.done, deleted, mint]);
    expect(gone.statusCode, gone.body).toBe(200);
    // After the delete: the root's pools are no more.
    expect(answer.statusCode, answer.body).toBe(404);
    expect(deadlocksRetried() - deadlocksBefore).toBe(0);
  });

  it('and the ledger is whole', async () => {
    expect(await ledgerViolations(t.db)).toEqual([]);
    expect(await conservationViolations(t.db)).toEqual([]);
  });
});
