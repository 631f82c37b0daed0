import { buildApp } from '../../src/app';
import type { Database } from '../../src/db/client';
import { openTestDatabase } from './test-database';
import { createWorld } from './world';

/** A fresh database copy, the app on it (no network port) and the test world. */
export async function createTestApp() {
  const database: Database = await openTestDatabase();
  const app = await buildApp({ db: database.db });
  const world = await createWorld(database.db);
  return {
    app,
    db: database.db,
    world,
    async login(email: string, password: string) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password },
      });
      if (response.statusCode !== 200) throw new Error(`login ${email} failed: ${response.body}`);
      return response.json<{ secToken: string }>().secToken;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
