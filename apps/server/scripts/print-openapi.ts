// Prints the OpenAPI document the server serves at /api/docs/json (or writes it to the path given), without
// a server or a database: `npm run openapi > allot-api.json`, and `npm run lint` lints it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildApp } from '../src/app';
import { openPglite } from '../src/db/client';

const database = await openPglite();
const app = await buildApp({ db: database.db, publicUrl: process.env.PUBLIC_URL ?? 'http://localhost:3000' });
await app.ready();
const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
await database.close();
const out = process.argv[2];
if (out) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, document);
} else process.stdout.write(document);
