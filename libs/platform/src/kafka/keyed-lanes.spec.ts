import { runInKeyedLanes } from './keyed-lanes';

/** A task the test finishes by hand, so the interleaving is the test's, not the clock's. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('runInKeyedLanes', () => {
  it("keeps each key's items in order and one at a time, while other keys overtake", async () => {
    const items = ['a1', 'b1', 'a2', 'c1', 'a3', 'b2'];
    const gates = new Map(items.map((item) => [item, gate()]));
    const started: string[] = [];
    const finished: string[] = [];
    const done = runInKeyedLanes(items, (item) => item[0], 8, async (item) => {
      started.push(item);
      await gates.get(item)!.opened;
      finished.push(item);
    });
    await flush();
    expect(started).toEqual(['a1', 'b1', 'c1']);
    gates.get('c1')!.open();
    gates.get('b1')!.open();
    await flush();
    expect(started).toEqual(['a1', 'b1', 'c1', 'b2']);
    gates.get('b2')!.open();
    gates.get('a1')!.open();
    await flush();
    expect(started.at(-1)).toBe('a2');
    gates.get('a2')!.open();
    await flush();
    expect(started.at(-1)).toBe('a3');
    gates.get('a3')!.open();
    await done;
    expect(finished.filter((item) => item.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(finished.filter((item) => item.startsWith('b'))).toEqual(['b1', 'b2']);
  });

  it('never runs more than the limit at once, and gives keyless items a lane each', async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 40 }, (_, index) => index);
    await runInKeyedLanes(items, () => null, 5, async () => {
      running += 1;
      most = Math.max(most, running);
      await flush();
      running -= 1;
    });
    expect(most).toBe(5);
  });

  it('rejects with the first failure, starts nothing more on that lane or any other, and lets the started ones settle', async () => {
    const ran: string[] = [];
    const slow = gate();
    const outcome = runInKeyedLanes(['a1', 'a2', 'b1', 'c1', 'd1'], (item) => item[0], 2, async (item) => {
      ran.push(item);
      if (item === 'a1') throw new Error('a1 failed');
      if (item === 'b1') await slow.opened;
    });
    await flush();
    slow.open();
    await expect(outcome).rejects.toThrow('a1 failed');
    expect(ran).toEqual(['a1', 'b1']);
  });
});
