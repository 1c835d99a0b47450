import { AsyncLocalStorage } from 'node:async_hooks';
import { ChunkCoalescer } from './chunk-coalescer';

/** A handler that records each call and answers one outcome per event (`ok:<event>`), or fails. */
function recordingHandler(fails: (events: string[]) => boolean = () => false) {
  const calls: { events: string[]; topic: string }[] = [];
  const apply = async (events: string[], topic: string) => {
    calls.push({ events: [...events], topic });
    if (fails(events)) throw new Error(`refused ${events.join(',')}`);
    return events.map((event) => `ok:${event}`);
  };
  return { calls, apply };
}

describe('ChunkCoalescer', () => {
  it('applies the chunks of a topic handed over in one turn in one call, and answers each its own outcomes', async () => {
    const handler = recordingHandler();
    const chunks = new ChunkCoalescer(handler.apply, { maxEvents: 10 });
    const answers = await Promise.all([
      chunks.submit(['a1', 'a2'], 'acquiring'),
      chunks.submit(['b1'], 'acquiring'),
      chunks.submit(['c1', 'c2', 'c3'], 'acquiring'),
    ]);
    expect(handler.calls).toEqual([{ events: ['a1', 'a2', 'b1', 'c1', 'c2', 'c3'], topic: 'acquiring' }]);
    expect(answers).toEqual([['ok:a1', 'ok:a2'], ['ok:b1'], ['ok:c1', 'ok:c2', 'ok:c3']]);
  });

  it('keeps topics apart, and starts another call where a merge would pass maxEvents', async () => {
    const handler = recordingHandler();
    const chunks = new ChunkCoalescer(handler.apply, { maxEvents: 3 });
    await Promise.all([
      chunks.submit(['a1', 'a2'], 'acquiring'),
      chunks.submit(['p1'], 'payouts'),
      chunks.submit(['b1', 'b2'], 'acquiring'),
      chunks.submit(['c1'], 'acquiring'),
    ]);
    expect(handler.calls).toEqual([
      { events: ['a1', 'a2'], topic: 'acquiring' },
      { events: ['b1', 'b2', 'c1'], topic: 'acquiring' },
      { events: ['p1'], topic: 'payouts' },
    ]);
  });

  it('does not merge chunks handed over in different turns', async () => {
    const handler = recordingHandler();
    const chunks = new ChunkCoalescer(handler.apply, { maxEvents: 10 });
    await chunks.submit(['a1'], 'acquiring');
    await chunks.submit(['b1'], 'acquiring');
    expect(handler.calls.map((call) => call.events)).toEqual([['a1'], ['b1']]);
  });

  it('retries a failed merge chunk by chunk, so only the chunk that cannot succeed fails', async () => {
    const handler = recordingHandler((events) => events.includes('bad'));
    const chunks = new ChunkCoalescer(handler.apply, { maxEvents: 10 });
    const answers = await Promise.allSettled([
      chunks.submit(['a1'], 'acquiring'),
      chunks.submit(['bad', 'b2'], 'acquiring'),
      chunks.submit(['c1'], 'acquiring'),
    ]);
    expect(handler.calls.map((call) => call.events)).toEqual([
      ['a1', 'bad', 'b2', 'c1'],
      ['a1'],
      ['bad', 'b2'],
      ['c1'],
    ]);
    expect(answers[0]).toEqual({ status: 'fulfilled', value: ['ok:a1'] });
    expect(answers[1]).toMatchObject({ status: 'rejected', reason: new Error('refused bad,b2') });
    expect(answers[2]).toEqual({ status: 'fulfilled', value: ['ok:c1'] });
  });

  it('runs a lone chunk in the context it was handed over in, and a merge in its own scope', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const chunks = new ChunkCoalescer(
      async (events: string[]) => {
        seen.push(context.getStore());
        return events;
      },
      { maxEvents: 10, mergedScope: (work) => context.run('merged', work) },
    );
    await context.run('first', () => chunks.submit(['a1'], 'acquiring'));
    await Promise.all([
      context.run('second', () => chunks.submit(['b1'], 'acquiring')),
      context.run('third', () => chunks.submit(['c1'], 'acquiring')),
    ]);
    await context.run('fourth', () => chunks.submit(['d1'], 'payouts'));
    expect(seen).toEqual(['first', 'merged', 'fourth']);
  });
});
