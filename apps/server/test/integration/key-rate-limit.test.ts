import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, buildApp } from '../../src/app';
import { rows } from '../../src/db/rows';
import {
  integrationRateLimitBlock,
  integrationRateLimitMessage,
} from '../../src/features/integration/key-rate-limit';
import { createPerson, createSchool, insertIntegrationKey, join } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';

/**
 * The per-key rate limit counted in blocks per process (CONTRACT §9, issue 31): each server process takes a
 * block of the key's count from its `rate_limits` row and spends it in memory. Two apps on one database are two
 * processes (each has its own memory, both count in the same row).
 */
let t: TestApp;
let email: string;
const apps: App[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const school = await createSchool(t.db, 'Rate School', t.world.orgs.alpha);
  const teacher = await createPerson(t.db, 'rate-teacher@limit.test');
  await join(t.db, teacher.id, school);
  email = teacher.email;
});
afterEach(async () => {
  vi.useRealTimers();
  for (const app of apps.splice(0)) await app.close();
});
afterAll(() => t.close());

/** A server process with its own memory, on the test's database. */
async function serverProcess(perMinute?: number): Promise<App> {
  const app = await buildApp({ db: t.db, integrationRateLimitPerMinute: perMinute });
  apps.push(app);
  return app;
}

const check = (app: App, key: string) =>
  app.inject({ method: 'GET', url: '/api/integration/entitlement', query: { email }, headers: bearer(key) });

async function countOf(keyId: string): Promise<number | null> {
  const [row] = await rows<{ count: number }>(
    t.db,
    sql`select count from rate_limits where key = ${`integration:${keyId}`}`,
  );
  return row ? Number(row.count) : null;
}

describe('the block', () => {
  it('is a fiftieth of the limit, at least 1 and at most 1,000', () => {
    expect(integrationRateLimitBlock(1)).toBe(1);
    expect(integrationRateLimitBlock(3)).toBe(1);
    expect(integrationRateLimitBlock(210)).toBe(4);
    expect(integrationRateLimitBlock(6000)).toBe(120);
    expect(integrationRateLimitBlock(100_000_000)).toBe(1000);
  });
});

describe('a key’s row is written once a block, not on every call', () => {
  it('the count moves by whole blocks; calls at once take one block between them', async () => {
    const block = integrationRateLimitBlock(300); // 6
    const app = await serverProcess(300);
    const key = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Blocks');
    // 5 calls at once: one request to the database for them all, one block taken.
    const first = await Promise.all(Array.from({ length: 5 }, () => check(app, key.key)));
    expect(first.map((a) => a.statusCode)).toEqual(Array(5).fill(200));
    expect(await countOf(key.id)).toBe(block);
    expect((await check(app, key.key)).statusCode).toBe(200);
    expect(await countOf(key.id)).toBe(block);
    // The next call takes the second block; 20 more at once take what they need, one block at a time.
    expect((await check(app, key.key)).statusCode).toBe(200);
    expect(await countOf(key.id)).toBe(2 * block);
    const more = await Promise.all(Array.from({ length: 20 }, () => check(app, key.key)));
    expect(more.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    // 27 calls: 5 blocks of 6 taken, 3 calls left in this process's memory.
    expect(await countOf(key.id)).toBe(5 * block);
  });

  it('each process takes its own block of the same row', async () => {
    const [one, two] = [await serverProcess(), await serverProcess()] as [App, App];
    const key = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Two blocks');
    for (let i = 0; i < 10; i++) {
      expect((await check(one, key.key)).statusCode).toBe(200);
      expect((await check(two, key.key)).statusCode).toBe(200);
    }
    // The default limit, 6,000 a minute: each process took one block of 120 for its 10 calls.
    expect(await countOf(key.id)).toBe(2 * integrationRateLimitBlock(6000));
  });
});

describe('the limit across processes', () => {
  it('two processes together let through at least the limit and at most one block more per process', async () => {
    const limit = 210;
    const block = integrationRateLimitBlock(limit);
    const processes = [await serverProcess(limit), await serverProcess(limit)];
    const key = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Across');
    let accepted = 0;
    // Each process is called, 8 at a time, until it refuses: then it has spent every call it took.
    await Promise.all(
      processes.flatMap((app) => {
        let refused = false;
        return Array.from({ length: 8 }, async () => {
          while (!refused) {
            const answer = await check(app, key.key);
            if (answer.statusCode === 200) accepted++;
            else {
              expect(answer.statusCode).toBe(429);
              refused = true;
            }
          }
        });
      }),
    );
    expect(accepted).toBeGreaterThanOrEqual(limit);
    expect(accepted).toBeLessThanOrEqual(limit + block * processes.length);
    // Nothing was let through that the row does not count: a refused process had spent all it took.
    expect(await countOf(key.id)).toBe(accepted);
  });

  it('a refused process answers 429 by itself until the window ends, then takes a block of the new window', async () => {
    const app = await serverProcess(2);
    const key = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Refused');
    expect((await check(app, key.key)).statusCode).toBe(200);
    expect((await check(app, key.key)).statusCode).toBe(200);
    const refused = await check(app, key.key);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      error: 'rate_limited',
      message: integrationRateLimitMessage(2, retryAfter),
      details: { retryAfter },
    });
    // Without its row, a process that asked the database would be let through: this one does not ask.
    await t.db.execute(sql`delete from rate_limits where key = ${`integration:${key.id}`}`);
    expect((await check(app, key.key)).statusCode).toBe(429);
    expect(await countOf(key.id)).toBeNull();
    // A minute later (by this process's clock) the window has ended: a new one begins.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expect((await check(app, key.key)).statusCode).toBe(200);
    expect(await countOf(key.id)).toBe(1);
  });
});
