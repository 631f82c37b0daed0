import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';

/**
 * TOTP secrets at rest (decision 015). With MFA_ENCRYPTION_KEY: AES-256-GCM, a fresh 96-bit IV each time, the
 * account's id as associated data (a secret copied onto another account's row does not decrypt). Without a key
 * (a local run): marked `plain:`, readable by whoever reads the database, and encrypted at the next start that
 * has a key (`encryptPlainSecrets`).
 */
const PLAIN = 'plain:';
const V1 = 'v1:';

export function sealSecret(secret: string, userId: string, key: Buffer | undefined): string {
  if (!key) return `${PLAIN}${secret}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const parts = [iv, sealed, cipher.getAuthTag()].map((b) => b.toString('base64url'));
  return `${V1}${parts.join(':')}`;
}

/** The secret; throws (a `500`, logged) when it cannot be read with this key: a configuration mistake. */
export function openSecret(stored: string, userId: string, key: Buffer | undefined): string {
  if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
  if (!stored.startsWith(V1)) throw new Error('a two-factor secret is stored in an unknown form');
  if (!key) throw new Error('two-factor secrets are encrypted and MFA_ENCRYPTION_KEY is not set');
  const [iv, sealed, tag] = stored
    .slice(V1.length)
    .split(':')
    .map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !sealed || !tag) throw new Error('a two-factor secret is stored in an unknown form');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(
      'a two-factor secret does not open with MFA_ENCRYPTION_KEY: is it the key it was written with?',
    );
  }
}

/** At start with a key: encrypts the secrets written without one. Answers how many. */
export async function encryptPlainSecrets(db: Db, key: Buffer): Promise<number> {
  const plain = await rows<{ user_id: string; secret: string }>(
    db,
    sql`select user_id, secret from user_mfa where secret like ${`${PLAIN}%`}`,
  );
  for (const row of plain) {
    const sealed = sealSecret(openSecret(row.secret, row.user_id, undefined), row.user_id, key);
    await db.execute(
      sql`update user_mfa set secret = ${sealed} where user_id = ${row.user_id} and secret = ${row.secret}`,
    );
  }
  return plain.length;
}
