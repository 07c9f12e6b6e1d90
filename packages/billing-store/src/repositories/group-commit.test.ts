import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('commits items submitted together in one batch', async () => {
    const batches: string[][] = [];
    const group = new GroupCommit<string, string>(
      async (items) => {
        batches.push([...items]);
        return items.map((item) => `ok ${item}`);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    expect(await Promise.all(['a', 'b', 'c'].map((item) => group.submit(item)))).toEqual(['ok a', 'ok b', 'ok c']);
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('fails only the item that cannot commit when its batch fails, never its neighbours', async () => {
    const batches: string[][] = [];
    const group = new GroupCommit<string, string>(
      async (items) => {
        batches.push([...items]);
        if (items.includes('poison')) throw new Error('the batch failed');
        return items.map((item) => `ok ${item}`);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const settled = await Promise.allSettled(['a', 'poison', 'b'].map((item) => group.submit(item)));
    expect(settled.map((result) => (result.status === 'fulfilled' ? result.value : 'rejected'))).toEqual([
      'ok a',
      'rejected',
      'ok b',
    ]);
    expect(batches).toEqual([['a', 'poison', 'b'], ['a'], ['poison'], ['b']]);
  });
});
