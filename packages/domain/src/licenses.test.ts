import { describe, expect, it } from 'vitest';
import {
  LICENSE_MSG,
  licenseMetadataSchema,
  METADATA_MAX_BYTES,
  METADATA_MAX_DEPTH,
  nestsWithin,
  updateLicenseRequestSchema,
} from './licenses';

/** An object nested `levels` deep: `{a: {a: … {} }}`, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

const messages = (value: unknown) => {
  const parsed = licenseMetadataSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('licence metadata (CONTRACT §7: a JSON object, at most 16 KB and 20 levels deep)', () => {
  it('counts an object or an array as a level, whatever holds it', () => {
    expect(nestsWithin({}, 1)).toBe(true);
    expect(nestsWithin({ a: [] }, 1)).toBe(false);
    expect(nestsWithin({ a: [1, { b: 'x' }] }, 3)).toBe(true);
    expect(nestsWithin({ a: [1, { b: {} }] }, 3)).toBe(false);
    expect(nestsWithin({ a: 1, b: 'text', c: null, d: true }, 1)).toBe(true);
  });

  it('takes 20 levels and refuses 21 with its text', () => {
    expect(messages(nested(METADATA_MAX_DEPTH))).toEqual([]);
    expect(messages(nested(METADATA_MAX_DEPTH + 1))).toEqual([LICENSE_MSG.metadataTooDeep]);
  });

  it('refuses 5,000 and 100,000 levels without overflowing the stack (JSON.stringify of them does)', () => {
    expect(() => JSON.stringify(nested(100_000))).toThrow(RangeError);
    expect(messages(nested(5_000))).toEqual([LICENSE_MSG.metadataTooDeep]);
    expect(messages(nested(100_000))).toEqual([LICENSE_MSG.metadataTooDeep]);
    let list: unknown[] = [];
    for (let i = 0; i < 100_000; i++) list = [list];
    expect(messages({ list })).toEqual([LICENSE_MSG.metadataTooDeep]);
  });

  it('takes 16 KB serialized and refuses a byte more, counting UTF-8 bytes', () => {
    const frame = JSON.stringify({ note: '' }).length;
    expect(messages({ note: 'x'.repeat(METADATA_MAX_BYTES - frame) })).toEqual([]);
    expect(messages({ note: 'x'.repeat(METADATA_MAX_BYTES - frame + 1) })).toEqual([
      LICENSE_MSG.metadataTooLarge,
    ]);
    // 'é' is 2 bytes in UTF-8: half as many fit.
    const fit = Math.floor((METADATA_MAX_BYTES - frame) / 2);
    expect(messages({ note: 'é'.repeat(fit) })).toEqual([]);
    expect(messages({ note: 'é'.repeat(fit + 1) })).toEqual([LICENSE_MSG.metadataTooLarge]);
  });

  it('is a JSON object: an array or a value is refused; the update names the field', () => {
    expect(licenseMetadataSchema.safeParse([]).success).toBe(false);
    expect(licenseMetadataSchema.safeParse('text').success).toBe(false);
    const update = updateLicenseRequestSchema.safeParse({
      expireAt: '2031-01-01',
      maxUsers: 1,
      metadata: nested(30),
    });
    expect(update.success).toBe(false);
    expect(update.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['metadata'], LICENSE_MSG.metadataTooDeep],
    ]);
  });
});
