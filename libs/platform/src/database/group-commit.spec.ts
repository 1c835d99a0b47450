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

describe('GroupCommit with a gathering window', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('holds the first item of a quiet moment until the window ends, then writes all that came', async () => {
    const { batches, finishers, write } = heldWrites();
    const group = new GroupCommit(write, 10, { gatherMs: 50 });
    const first = group.submit(1);
    jest.advanceTimersByTime(49);
    const second = group.submit(2);
    expect(batches).toEqual([]);

    jest.advanceTimersByTime(1);
    expect(batches).toEqual([[1, 2]]);
    finishers[0](null);
    expect(await Promise.all([first, second])).toEqual(['done 1', 'done 2']);
  });

  it('writes at once when maxBatch items are there before the window ends, and the window does not fire again', async () => {
    const { batches, finishers, write } = heldWrites();
    const group = new GroupCommit(write, 3, { gatherMs: 50 });
    const full = [group.submit(1), group.submit(2), group.submit(3)];
    expect(batches).toEqual([[1, 2, 3]]);

    jest.advanceTimersByTime(50);
    expect(batches).toEqual([[1, 2, 3]]);
    finishers[0](null);
    expect(await Promise.all(full)).toEqual(['done 1', 'done 2', 'done 3']);
  });

  it('writes what arrived during a write right after it, without a second window', async () => {
    const { batches, finishers, write } = heldWrites();
    const group = new GroupCommit(write, 10, { gatherMs: 50 });
    const first = group.submit(1);
    jest.advanceTimersByTime(50);
    const during = group.submit(2);
    finishers[0](null);
    await first;
    await Promise.resolve();
    expect(batches).toEqual([[1], [2]]);
    finishers[1](null);
    expect(await during).toBe('done 2');
  });
});

describe('GroupCommit with a write of one item alone', () => {
  it('retries a failed write of several one item at a time: only the item that cannot be written fails', async () => {
    const written: number[][] = [];
    const group = new GroupCommit<number, string>(
      async (items) => {
        written.push(items);
        if (items.includes(2)) throw new Error('the batch failed');
        return items.map((item) => `done ${item}`);
      },
      10,
      {
        gatherMs: 1,
        alone: async (item) => {
          written.push([item]);
          if (item === 2) throw new Error('2 cannot be written');
          return `alone ${item}`;
        },
      },
    );
    const outcomes = await Promise.allSettled([1, 2, 3].map((item) => group.submit(item)));

    expect(written).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'alone 1' },
      { status: 'rejected', reason: new Error('2 cannot be written') },
      { status: 'fulfilled', value: 'alone 3' },
    ]);
  });

  it('rejects a failed write of one item with its error, without writing it again', async () => {
    const alone = jest.fn();
    const group = new GroupCommit<number, string>(() => Promise.reject(new Error('write failed')), 10, {
      alone,
    });
    await expect(group.submit(1)).rejects.toThrow('write failed');
    expect(alone).not.toHaveBeenCalled();
  });
});
