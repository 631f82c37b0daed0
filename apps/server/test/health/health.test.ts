import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { createTestApp, type TestApp } from '../support/test-app';

/** Issue 35: liveness and readiness, each on its own, for a load balancer or an orchestrator. */
let t: TestApp;
const processState = { stopping: false };
beforeAll(async () => {
  t = await createTestApp({ processState });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('health', () => {
  it('says the process is alive without asking the database', async () => {
    const live = await get('/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('is ready when the database answers and every migration is applied; not while it stops', async () => {
    const ready = await get('/api/health/ready');
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied', stopping: false });

    processState.stopping = true;
    try {
      const stopping = await get('/api/health/ready');
      expect(stopping.statusCode).toBe(503);
      expect(stopping.json()).toMatchObject({ status: 'not_ready', stopping: true, database: 'ok' });
      // Alive all the same: it is finishing its requests.
      expect((await get('/api/health/live')).statusCode).toBe(200);
    } finally {
      processState.stopping = false;
    }
  });

  it('is not ready on a database older than the build (a migration not applied yet)', async () => {
    const [last] = await rows<{ name: string }>(t.db, sql`select max(name) as name from schema_migrations`);
    await t.db.execute(sql`delete from schema_migrations where name = ${last?.name ?? ''}`);
    try {
      const behind = await get('/api/health/ready');
      expect(behind.statusCode).toBe(503);
      expect(behind.json()).toMatchObject({ status: 'not_ready', migrations: 'pending' });
      // The old call keeps its contract: the database answers.
      expect((await get('/api/health')).json()).toEqual({ status: 'ok', database: 'ok' });
    } finally {
      await t.db.execute(sql`insert into schema_migrations (name) values (${last?.name ?? ''})`);
    }
  });
});
