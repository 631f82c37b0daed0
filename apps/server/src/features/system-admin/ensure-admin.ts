import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { users } from '../../db/schema';
import { hashPassword } from '../auth';

export type EnsureAdminResult =
  | { kind: 'configured'; email: string }
  | { kind: 'generated'; email: string; password: string }
  | { kind: 'exists' };

export const GENERATED_ADMIN_EMAIL = 'admin@allot.local';

/**
 * With ADMIN_EMAIL and ADMIN_PASSWORD: create that system admin or reset its password.
 * Without them: on a database with no system admin, create one with a generated password
 * (returned once so that start-up can print it; only its hash is kept).
 */
export async function ensureSystemAdmin(
  db: Db,
  configured: { email?: string; password?: string },
): Promise<EnsureAdminResult> {
  if (configured.email && configured.password) {
    const email = configured.email.trim();
    const passwordHash = await hashPassword(configured.password);
    // ON CONFLICT on the lower(email) index: drizzle's builder cannot name an expression target.
    await db.execute(sql`
      insert into users (email, name, password_hash, is_system_admin, email_verified_at)
      values (${email}, 'System admin', ${passwordHash}, true, now())
      on conflict (lower(email)) do update set password_hash = excluded.password_hash,
        is_system_admin = true, email_verified_at = coalesce(users.email_verified_at, now()), updated_at = now()`);
    return { kind: 'configured', email };
  }
  const existing = await rows(db, sql`select 1 from users where is_system_admin limit 1`);
  if (existing.length > 0) return { kind: 'exists' };
  const password = randomBytes(12).toString('base64url');
  const inserted = await db
    .insert(users)
    .values({
      email: GENERATED_ADMIN_EMAIL,
      name: 'System admin',
      passwordHash: await hashPassword(password),
      isSystemAdmin: true,
      emailVerifiedAt: sql`now()`,
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  // Another process created it at the same moment: it printed the password, not us.
  return inserted.length > 0
    ? { kind: 'generated', email: GENERATED_ADMIN_EMAIL, password }
    : { kind: 'exists' };
}
