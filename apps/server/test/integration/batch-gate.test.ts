import { describe, expect, it } from 'vitest';
import { BatchGate } from '../../src/features/integration/batch-gate';

/** A task that runs until it is let go, and says when it started. */
function task(started: number[], index: number) {
  let letGo: (value: number) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const done = new Promise<number>((resolve, reject) => {
    letGo = resolve;
    fail = reject;
  });
  return {
    work: () => {
      started.push(index);
      return done;
    },
    finish: () => letGo(index),
    fail: () => fail(new Error(`task ${index} failed`)),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('batch consumption calls wait in the process beyond CONSUME_TRANSACTIONS (decision 016)', () => {
  it('runs at most that many at once, the others in arrival order as slots free; each gets its own answer', async () => {
    const gate = new BatchGate(2);
    const started: number[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) => task(started, i));
    const answers = tasks.map((t) => gate.run('key', t.work));
    await settle();
    expect(started).toEqual([0, 1]);
    tasks[1]?.finish();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]?.finish();
    tasks[2]?.finish();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    tasks[3]?.finish();
    tasks[4]?.finish();
    expect(await Promise.all(answers)).toEqual([0, 1, 2, 3, 4]);
  });

  it('a call that fails passes its error on and frees its slot for the next', async () => {
    const gate = new BatchGate(1);
    const started: number[] = [];
    const first = task(started, 0);
    const second = task(started, 1);
    const failing = gate.run('key', first.work);
    const next = gate.run('key', second.work);
    await settle();
    expect(started).toEqual([0]);
    first.fail();
    await expect(failing).rejects.toThrow('task 0 failed');
    await settle();
    expect(started).toEqual([0, 1]);
    second.finish();
    expect(await next).toBe(1);
    // Free again: a call now starts at once.
    const third = task(started, 2);
    const last = gate.run('key', third.work);
    await settle();
    expect(started).toEqual([0, 1, 2]);
    third.finish();
    expect(await last).toBe(2);
  });

  it('keys take turns for a free slot: one network sending many batches does not hold up another', async () => {
    const gate = new BatchGate(1);
    const started: number[] = [];
    // Key A sends four batches at once, then key B one: B's goes second, not fifth.
    const tasks = Array.from({ length: 5 }, (_, i) => task(started, i));
    const answers = tasks.map((t, i) => gate.run(i < 4 ? 'A' : 'B', t.work));
    for (const expected of [[0], [0, 4], [0, 4, 1], [0, 4, 1, 2], [0, 4, 1, 2, 3]]) {
      await settle();
      expect(started).toEqual(expected);
      tasks[expected.at(-1) as number]?.finish();
    }
    expect(await Promise.all(answers)).toEqual([0, 1, 2, 3, 4]);
  });
});
