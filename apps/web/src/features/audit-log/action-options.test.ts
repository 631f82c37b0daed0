import { AUDIT_ACTIONS } from '@allot/domain/audit';
import { describe, expect, it } from 'vitest';
import { ACTION_OPTIONS } from './action-options';

describe("the audit log's action filter", () => {
  it('offers every action the log records, each once (requests included)', () => {
    const offered = ACTION_OPTIONS.flatMap((group) => group.items.map((item) => item.value));
    expect([...offered].sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(ACTION_OPTIONS.find((group) => group.group === 'Requests')?.items.map((i) => i.label)).toEqual([
      'Request made',
      'Request approved',
      'Request declined',
      'Request cancelled',
    ]);
  });
});
