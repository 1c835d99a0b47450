import { GroupCommit } from './group-commit';

/** A write the test completes by hand, recording each batch it was given. */
function heldWrites() {
  const batches: number[][] = [];
  const finishers: ((outcome: Error | null) => void)[] = [];
  const write = (items: number[]) => {
    batches.push(items);
    return new Promise<string[]>((resolve, reject) =>
      finishers.push((outcome) => (outcome ? reject(outcome) : resolve(items.map((item) => `done ${item}`)))),
    );
  };
  return { batches, finishers, write };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes the first item at once and what arrives meanwhile in the next write, each caller its own result', async () => {
    const { batches, finishers, write } = heldWrites();
    const group = new GroupCommit(write);
    const first = group.submit(1);
    const rest = [group.submit(2), group.submit(3), group.submit(4)];
    expect(batches).toEqual([[1]]);

    finishers[0](null);
    expect(await first).toBe('done 1');
    await turn();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finishers[1](null);
    expect(await Promise.all(rest)).toEqual(['done 2', 'done 3', 'done 4']);
  });

  it('rejects every item of a failed write, and still writes the next batch', async () => {
    const { batches, finishers, write } = heldWrites();
    const group = new GroupCommit(write);
    const failed = [group.submit(1)];
    const later = group.submit(2);
    finishers[0](new Error('connection lost'));
    await expect(failed[0]).rejects.toThrow('connection lost');
    await turn();
    finishers[1](null);
    expect(await later).toBe('done 2');
    expect(batches).toEqual([[1], [2]]);
  });

  it('splits a backlog into writes of at most maxBatch items', async () => {
    const { batches, finishers, write } = heldWrites();
    const group = new GroupCommit(write, 2);
    const all = [1, 2, 3, 4, 5].map((item) => group.submit(item));
    for (let i = 0; i < 3; i += 1) {
      finishers[i](null);
      await turn();
    }
    await Promise.all(all);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
  });
});
