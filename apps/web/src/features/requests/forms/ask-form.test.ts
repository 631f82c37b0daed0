import { REQUEST_MSG } from '@allot/domain/requests';
import { describe, expect, it } from 'vitest';
import { askFormSchema } from './ask-form';

const base = { kind: 'credits' as const, amount: '300', pool: 'shared' as const, licenseType: '', note: '' };

describe('the ask form', () => {
  it('sends credits with their pool, and no licence type', () => {
    expect(askFormSchema.parse({ ...base, licenseType: 'chorus' })).toEqual({
      kind: 'credits',
      amount: 300,
      pool: 'shared',
    });
  });

  it('sends seats with their licence type, and no pool; the note trimmed', () => {
    expect(
      askFormSchema.parse({
        ...base,
        kind: 'seats',
        amount: '1,200',
        licenseType: 'chorus',
        note: '  New staff ',
      }),
    ).toEqual({ kind: 'seats', amount: 1200, licenseType: 'chorus', note: 'New staff' });
  });

  it('asks for the licence type of seats, on its field', () => {
    const result = askFormSchema.safeParse({ ...base, kind: 'seats' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['licenseType', REQUEST_MSG.licenseTypeRequired],
    ]);
  });

  it('refuses an amount that is no whole positive number, on its field', () => {
    for (const amount of ['', '0', '-3', '2.5', 'ten']) {
      const result = askFormSchema.safeParse({ ...base, amount });
      expect(result.success, amount).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['amount']);
    }
  });
});
