import { type AppOptions, buildApp } from '../../src/app';
import { ResponseContract } from './response-contract';
import { openTestDatabase, type TestDatabase } from './test-database';
import { createWorld } from './world';

export const TEST_PUBLIC_URL = 'http://panel.test';

/** A fresh database copy, the app on it (no network port) and the test world. */
export async function createTestApp(options: Omit<AppOptions, 'db'> = {}) {
  const database: TestDatabase = await openTestDatabase();
  const app = await buildApp({ publicUrl: TEST_PUBLIC_URL, ...options, db: database.db });
  // Every answer of every API test is checked against the OpenAPI document (support/response-contract.ts).
  const contract = new ResponseContract(app);
  contract.attach();
  const world = await createWorld(database.db);
  return {
    app,
    db: database.db,
    database,
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
    contract,
    async close() {
      await app.close();
      await database.close();
      if (contract.violations.length > 0) {
        const unique = [...new Set(contract.violations)];
        throw new Error(`answers that differ from the API document:\n${unique.join('\n')}`);
      }
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
