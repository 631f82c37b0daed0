import { INTEGRATION_KEY_PREFIX } from '@allot/domain/integration';
import { describe, expect, it } from 'vitest';
import { shownKey } from './key-text';

describe('a key in the list', () => {
  it('is its first characters and an ellipsis, never mistaken for a whole key', () => {
    expect(shownKey(`${INTEGRATION_KEY_PREFIX}abc123`)).toBe('allot_sk_abc123…');
  });
});
