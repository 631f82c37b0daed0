import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import type { Database } from '../src/db/client';
import { openTestDatabase } from './support/test-database';

let dir: string;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'allot-web-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Allot</title><div id="root"></div>');
  await writeFile(path.join(dir, 'assets', 'app.js'), 'console.log("app")');
  database = await openTestDatabase();
  app = await buildApp({ db: database.db, webDistDir: dir });
});
afterAll(async () => {
  await app.close();
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

describe('serving the web app beside the API', () => {
  it('answers every client route with index.html so that deep links work', async () => {
    for (const url of ['/', '/login', '/1b0c2d4e-0000-4000-8000-000000000000/users', '/password/token/a/b']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves built assets', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
  });

  it('keeps /api answers as JSON', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });
});
