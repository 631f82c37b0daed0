import {
  type CreatedIntegrationKey,
  INTEGRATION_MSG,
  type IntegrationKey,
  type IntegrationSettings,
} from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { type Database, openPostgres } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { findIntegrationKey, hashIntegrationKey, KEY_COPY_MS } from '../../src/features/integration/key-auth';
import { KEY_MSG, MAX_LIVE_INTEGRATION_KEYS } from '../../src/features/integration/manage-keys';
import { createPerson, createSchool, insertIntegrationKey, join, mint } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/**
 * The panel's integration keys and daily limit (CONTRACT §9, issue 15): a key is shown once and kept as a
 * hash, listed without it, works on the integration calls, is refused at once when revoked (by every server
 * on the database), and an organization holds a bounded number of them.
 */
let t: TestApp;
let owner: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  owner = bearer(await sessionFor(t.db, t.world.users.owner.id));
});
afterAll(() => t.close());

const keysUrl = (organizationId: string) => `/api/organization/${organizationId}/integration-keys`;
const settingsUrl = (organizationId: string) => `/api/organization/${organizationId}/integration-settings`;

const create = (organizationId: string, payload: unknown, headers = owner) =>
  t.app.inject({ method: 'POST', url: keysUrl(organizationId), headers, payload: payload as object });
async function createKey(organizationId: string, name = 'Classroom'): Promise<CreatedIntegrationKey> {
  const response = await create(organizationId, { name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedIntegrationKey>();
}
async function list(organizationId: string): Promise<IntegrationKey[]> {
  const response = await t.app.inject({ method: 'GET', url: keysUrl(organizationId), headers: owner });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<IntegrationKey[]>();
}
const revoke = (organizationId: string, keyId: string, app: FastifyInstance = t.app) =>
  app.inject({ method: 'DELETE', url: `${keysUrl(organizationId)}/${keyId}`, headers: owner });
/** The classroom product's entitlement check of the world's teacher (Alpha School A), with a key. */
const entitlement = (key: string, app: FastifyInstance = t.app) =>
  app.inject({
    method: 'GET',
    url: '/api/integration/entitlement',
    query: { email: t.world.users.teacher.email },
    headers: bearer(key),
  });

let schools = 0;
/** A school of its own under Alpha District, so each case counts only its own keys. */
const school = () => createSchool(t.db, `Keys School ${++schools}`, t.world.orgs.alpha);

describe('creating a key', () => {
  it('answers the key this once, allot_sk_ and 32 random bytes, and keeps only its SHA-256', async () => {
    const org = await school();
    const response = await create(org, { name: '  Chorus classroom  ' });
    expect(response.statusCode).toBe(201);
    const created = response.json<CreatedIntegrationKey>();
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'id', 'key', 'name', 'prefix']);
    expect(created.key).toMatch(/^allot_sk_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 'allot_sk_'.length + 6));
    expect(created.name).toBe('Chorus classroom');
    expect(Date.now() - Date.parse(created.createdAt)).toBeLessThan(60_000);

    const [stored] = await rows<Record<string, unknown>>(
      t.db,
      sql`select * from integration_keys where id = ${created.id}`,
    );
    expect(stored).toMatchObject({
      organization_id: org,
      name: 'Chorus classroom',
      prefix: created.prefix,
      key_hash: hashIntegrationKey(created.key),
      created_by: t.world.users.owner.id,
      revoked_at: null,
    });
    // Nowhere in the row: the key itself is in the answer only.
    expect(JSON.stringify(stored)).not.toContain(created.key);

    const second = await createKey(org);
    expect(second.key).not.toBe(created.key);
    expect(second.prefix).not.toBe(created.prefix);
  });

  it('is refused for bad names, with the field named: 400', async () => {
    const org = await school();
    const tooLong = 'n'.repeat(101);
    for (const payload of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 42 },
      { name: tooLong },
      { name: 'a\u0000b' },
      { name: 'x\ud800' },
    ]) {
      const response = await create(org, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({
        error: 'invalid_input',
        details: { fields: { name: expect.any(String) } },
      });
    }
    // Authentication first: without a token the same body is 401.
    const anonymous = await t.app.inject({ method: 'POST', url: keysUrl(org), payload: { name: '' } });
    expect(anonymous.statusCode).toBe(401);
    expect(await list(org)).toEqual([]);
  });

  it(`holds at most ${MAX_LIVE_INTEGRATION_KEYS} live keys per organization (422), revoked ones not counted`, async () => {
    const org = await school();
    const made: CreatedIntegrationKey[] = [];
    for (let i = 0; i < MAX_LIVE_INTEGRATION_KEYS; i++) made.push(await createKey(org, `Key ${i}`));
    const refused = await create(org, { name: 'One more' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: 'business_rule', message: KEY_MSG.tooManyKeys });
    expect(await list(org)).toHaveLength(MAX_LIVE_INTEGRATION_KEYS);
    // Another organization, even the one below, has its own count.
    await createKey(t.world.orgs.schoolB);

    expect((await revoke(org, made[0]?.id ?? '')).statusCode).toBe(200);
    await createKey(org, 'After a revocation');
    expect((await create(org, { name: 'Again one more' })).statusCode).toBe(422);
  });

  it('does not pass the cap with creations at the same moment', async () => {
    const org = await school();
    for (let i = 0; i < MAX_LIVE_INTEGRATION_KEYS - 2; i++) await createKey(org, `Key ${i}`);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => create(org, { name: `Racing ${i}` })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 201, 422, 422, 422]);
    expect(await list(org)).toHaveLength(MAX_LIVE_INTEGRATION_KEYS);
  });
});

describe('listing keys', () => {
  it('lists the live keys of exactly that organization, newest first, without the key or its hash', async () => {
    const org = await school();
    const below = await createSchool(t.db, 'Below the keys school', org);
    const first = await createKey(org, 'First');
    const second = await createKey(org, 'Second');
    await createKey(below, 'Of the school below');
    await createKey(t.world.orgs.alpha, 'Of the district above');

    const listed = await list(org);
    expect(listed).toEqual([
      {
        id: second.id,
        name: 'Second',
        prefix: second.prefix,
        createdBy: { id: t.world.users.owner.id, name: 'Olga Owner' },
        createdAt: second.createdAt,
        lastUsedAt: null,
      },
      {
        id: first.id,
        name: 'First',
        prefix: first.prefix,
        createdBy: { id: t.world.users.owner.id, name: 'Olga Owner' },
        createdAt: first.createdAt,
        lastUsedAt: null,
      },
    ]);
    const body = (await t.app.inject({ method: 'GET', url: keysUrl(org), headers: owner })).body;
    for (const key of [first, second]) {
      expect(body).not.toContain(key.key);
      expect(body).not.toContain(hashIntegrationKey(key.key));
    }

    expect((await revoke(org, first.id)).json()).toEqual({ success: true });
    expect((await list(org)).map((k) => k.id)).toEqual([second.id]);
  });
});

describe('a key at work', () => {
  it('authenticates the integration calls of its subtree, and its last use is written (at most once a minute)', async () => {
    const created = await createKey(t.world.orgs.alpha, 'At work');
    expect(await findIntegrationKey(t.db, created.key)).toEqual({
      keyId: created.id,
      organizationId: t.world.orgs.alpha,
    });
    const response = await entitlement(created.key);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ userId: t.world.users.teacher.id });

    const used = (await list(t.world.orgs.alpha)).find((k) => k.id === created.id);
    expect(used?.lastUsedAt).not.toBeNull();
    expect(Date.now() - Date.parse(used?.lastUsedAt ?? '')).toBeLessThan(60_000);

    const lastUsed = async () =>
      (await list(t.world.orgs.alpha)).find((k) => k.id === created.id)?.lastUsedAt ?? null;
    const setLastUsed = (secondsAgo: number) =>
      t.db.execute(sql`update integration_keys set last_used_at = now() - make_interval(secs => ${secondsAgo})
        where id = ${created.id}`);
    await setLastUsed(30);
    const recent = await lastUsed();
    expect((await entitlement(created.key)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(recent);
    await setLastUsed(120);
    const stale = await lastUsed();
    // A process reads a key again once its copy is a second old (key-auth.ts): then it sees the stale use.
    await new Promise((resolve) => setTimeout(resolve, KEY_COPY_MS + 50));
    expect((await entitlement(created.key)).statusCode).toBe(200);
    const touched = await lastUsed();
    expect(Date.parse(touched ?? '')).toBeGreaterThan(Date.parse(stale ?? ''));
  });

  it('is refused at once when revoked, also by a second server on the same database', async () => {
    const created = await createKey(t.world.orgs.alpha, 'Revoked soon');
    // A second app with its own connections where the database is a server (PostgreSQL), the same PGlite else.
    let secondDatabase: Database | null = null;
    let secondDb = t.db;
    if (t.database.kind === 'postgres' && process.env.TEST_DATABASE_URL) {
      const [row] = await rows<{ name: string }>(t.db, sql`select current_database() as name`);
      const url = new URL(process.env.TEST_DATABASE_URL);
      url.pathname = `/${row?.name}`;
      secondDatabase = await openPostgres(url.toString(), 2);
      secondDb = secondDatabase.db;
    }
    const second = await buildApp({ db: secondDb });
    try {
      // Both servers have accepted the key (nothing they remember may keep it alive).
      expect((await entitlement(created.key)).statusCode).toBe(200);
      expect((await entitlement(created.key, second)).statusCode).toBe(200);

      expect((await revoke(t.world.orgs.alpha, created.id)).json()).toEqual({ success: true });

      for (const app of [second, t.app]) {
        const refused = await entitlement(created.key, app);
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toEqual({ error: 'unauthorized', message: INTEGRATION_MSG.keyRevoked });
      }
      expect(await findIntegrationKey(t.db, created.key)).toBeNull();
      expect((await list(t.world.orgs.alpha)).map((k) => k.id)).not.toContain(created.id);
      const [stored] = await rows<{ revoked_at: unknown; revoked_by: string }>(
        t.db,
        sql`select revoked_at, revoked_by from integration_keys where id = ${created.id}`,
      );
      expect(stored?.revoked_at).not.toBeNull();
      expect(stored?.revoked_by).toBe(t.world.users.owner.id);
      // A second revocation finds no live key.
      expect((await revoke(t.world.orgs.alpha, created.id, second)).statusCode).toBe(404);
    } finally {
      await second.close();
      await secondDatabase?.close();
    }
  });

  it('is refused at once while the process still holds its copy of the key: every call answers 401', async () => {
    const created = await createKey(t.world.orgs.alpha, 'Copied, then revoked');
    // The call reads the key; the process keeps a copy for a second (key-auth.ts).
    expect((await entitlement(created.key)).statusCode).toBe(200);
    expect((await revoke(t.world.orgs.alpha, created.id)).json()).toEqual({ success: true });
    const revoked = { error: 'unauthorized', message: INTEGRATION_MSG.keyRevoked };
    const calls = [
      // A teacher the key would have found; one nobody knows (not 404); a body that is not valid (not 400).
      entitlement(created.key),
      t.app.inject({
        method: 'GET',
        url: '/api/integration/entitlement',
        query: { email: 'nobody@nowhere.test' },
        headers: bearer(created.key),
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/integration/consume',
        headers: { ...bearer(created.key), 'idempotency-key': 'copied-revoked-1' },
        payload: { email: t.world.users.teacher.email, credits: 1, reference: 'lesson' },
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/integration/consume',
        headers: { ...bearer(created.key), 'idempotency-key': 'copied-revoked-2' },
        payload: { email: t.world.users.teacher.email, credits: -3 },
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/integration/consume/batch',
        headers: { ...bearer(created.key), 'idempotency-key': 'copied-revoked-3' },
        payload: { items: [{ email: 'nobody@nowhere.test', credits: 1, reference: 'lesson' }] },
      }),
    ];
    for (const answer of await Promise.all(calls)) {
      expect(answer.statusCode, answer.body).toBe(401);
      expect(answer.json()).toEqual(revoked);
    }
  });

  it('revokes only through the key’s own organization: another one, an unknown or malformed id is 404', async () => {
    const ofSchoolB = await createKey(t.world.orgs.schoolB, 'School B’s');
    // The owner manages the district and School B, but the key is School B's, not the district's or School A's.
    for (const org of [t.world.orgs.alpha, t.world.orgs.schoolA]) {
      const response = await revoke(org, ofSchoolB.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    }
    for (const keyId of ['00000000-0000-4000-8000-000000000000', 'not-a-key']) {
      expect((await revoke(t.world.orgs.schoolB, keyId)).statusCode).toBe(404);
    }
    expect((await entitlement(ofSchoolB.key)).statusCode).toBe(404); // still live: the teacher is School A's
    expect((await list(t.world.orgs.schoolB)).map((k) => k.id)).toContain(ofSchoolB.id);
  });
});

describe('the daily limit', () => {
  const readSettings = async (org: string) => {
    const response = await t.app.inject({ method: 'GET', url: settingsUrl(org), headers: owner });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IntegrationSettings>();
  };
  const update = (org: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: settingsUrl(org), headers: owner, payload: payload as object });

  it('is unset with nothing consumed at first; set, read back and lifted', async () => {
    const org = await school();
    expect(await readSettings(org)).toEqual({ dailyConsumptionLimit: null, consumedToday: 0 });
    const set = await update(org, { dailyConsumptionLimit: 250 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ dailyConsumptionLimit: 250, consumedToday: 0 });
    expect(await readSettings(org)).toEqual({ dailyConsumptionLimit: 250, consumedToday: 0 });
    // Today's UTC row only; yesterday's does not count.
    await t.db.execute(sql`insert into consumption_days (organization_id, day, credits) values
      (${org}, (now() at time zone 'UTC')::date - 1, 40), (${org}, (now() at time zone 'UTC')::date, 17)`);
    expect(await readSettings(org)).toEqual({ dailyConsumptionLimit: 250, consumedToday: 17 });
    expect((await update(org, { dailyConsumptionLimit: null })).json()).toEqual({
      dailyConsumptionLimit: null,
      consumedToday: 17,
    });
    // One organization's limit is its own.
    expect((await readSettings(t.world.orgs.schoolB)).dailyConsumptionLimit).toBeNull();
  });

  it('refuses a limit that is not a positive whole number: 400 on the field', async () => {
    const org = await school();
    for (const payload of [
      {},
      { dailyConsumptionLimit: 0 },
      { dailyConsumptionLimit: -5 },
      { dailyConsumptionLimit: 2.5 },
      { dailyConsumptionLimit: '10' },
    ]) {
      const response = await update(org, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({
        error: 'invalid_input',
        details: { fields: { dailyConsumptionLimit: expect.any(String) } },
      });
    }
    expect((await readSettings(org)).dailyConsumptionLimit).toBeNull();
  });

  it('counts the classroom product’s consumption and holds it back above the limit', async () => {
    const org = await school();
    const teacher = await createPerson(t.db, `consumer${schools}@keys.test`);
    await join(t.db, teacher.id, org);
    await mint(t.db, { userId: teacher.id }, 100);
    const { key } = await insertIntegrationKey(t.db, org);
    const consume = (credits: number, idempotencyKey: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/integration/consume',
        headers: { ...bearer(key), 'idempotency-key': idempotencyKey },
        payload: { email: teacher.email, credits, reference: 'lesson-1' },
      });

    expect((await update(org, { dailyConsumptionLimit: 10 })).statusCode).toBe(200);
    expect((await consume(6, 'first')).statusCode).toBe(200);
    expect(await readSettings(org)).toEqual({ dailyConsumptionLimit: 10, consumedToday: 6 });
    const refused = await consume(5, 'second');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'daily_limit' });
    expect((await readSettings(org)).consumedToday).toBe(6);
    // Lifted, the same consumption goes through.
    await update(org, { dailyConsumptionLimit: null });
    expect((await consume(5, 'third')).statusCode).toBe(200);
    expect(await readSettings(org)).toEqual({ dailyConsumptionLimit: null, consumedToday: 11 });
  });
});

describe('the API document', () => {
  it('documents the key scheme, on the classroom product’s calls only, with what their 401 means', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      security: unknown[];
      components: { securitySchemes: Record<string, { type: string; scheme: string; description: string }> };
      paths: Record<
        string,
        Record<
          string,
          { security?: unknown[]; description: string; responses: Record<string, { description: string }> }
        >
      >;
    }>();
    expect(doc.components.securitySchemes.integrationKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.integrationKey?.description).toContain('allot_sk_');
    expect(doc.security).toEqual([{ bearer: [] }]);
    const keyCalls = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => JSON.stringify(op.security ?? []).includes('integrationKey'))
        .map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(keyCalls.map((c) => c.at).sort()).toEqual([
      'GET /api/integration/entitlement',
      'POST /api/integration/consume',
      'POST /api/integration/consume/batch',
    ]);
    for (const { at, op } of keyCalls) {
      expect(op.security, at).toEqual([{ integrationKey: [] }]);
      expect(op.responses['401']?.description, at).toContain('integration key');
      expect(op.description, at).toContain('Permission:');
    }
    // Key management is a panel call: the session's bearer scheme, and the permission it needs.
    const create = doc.paths['/api/organization/{id}/integration-keys']?.post;
    expect(create?.security).toBeUndefined();
    expect(create?.description).toContain('`manage_org_integration`');
    expect(Object.keys(create?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404', '422']),
    );
  });
});
