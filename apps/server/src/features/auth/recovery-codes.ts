import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { rows } from '../../db/rows';

/** Crockford's base32: no i, l, o or u, so that nothing reads as another character. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 16;

/** A new code: 16 characters of 32 (80 random bits), shown as four groups of four. */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** A typed code as stored: case, spaces and dashes do not matter, and i, l, o read as 1, 1, 0. */
export function normalizeRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/**
 * SHA-256 with the account's id: 80 random bits need no slow hash (no dictionary to try, 2^80 guesses offline),
 * and the id keeps one table of guesses from serving every account.
 */
function hashRecoveryCode(userId: string, code: string): string {
  return createHash('sha256').update(`recovery:${userId}:${code}`).digest('hex');
}

/** Replaces the account's recovery codes with 10 new ones, answered this once. */
export async function replaceRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.execute(sql`delete from mfa_recovery_codes where user_id = ${userId}`);
  const hashes = codes.map((code) => hashRecoveryCode(userId, normalizeRecoveryCode(code) ?? ''));
  await tx.execute(sql`insert into mfa_recovery_codes (user_id, code_hash)
    select ${userId}, value from json_array_elements_text(${jsonParam(hashes)})`);
  return codes;
}

/** Uses up one recovery code of the account: true when it was one (it is gone now; a second use fails). */
export async function useRecoveryCode(tx: Tx, userId: string, input: string): Promise<boolean> {
  const code = normalizeRecoveryCode(input);
  if (!code) return false;
  const used = await rows<{ id: string }>(
    tx,
    sql`delete from mfa_recovery_codes where user_id = ${userId}
        and code_hash = ${hashRecoveryCode(userId, code)} returning id`,
  );
  return used.length > 0;
}

export async function recoveryCodesLeft(db: Tx, userId: string): Promise<number> {
  const [row] = await rows<{ count: number }>(
    db,
    sql`select count(*)::int as count from mfa_recovery_codes where user_id = ${userId}`,
  );
  return Number(row?.count ?? 0);
}
