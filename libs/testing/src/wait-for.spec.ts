import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('returns the first value that is neither undefined nor false', async () => {
    const seen = [false, undefined, 0, 'done'];
    let calls = 0;
    await expect(waitFor(() => seen[calls++], { intervalMs: 1 })).resolves.toBe(0);
    expect(calls).toBe(3);
  });

  it('fails at its deadline, naming the wait, when a probe never settles', async () => {
    const neverSettles = () => new Promise<boolean>(() => undefined);
    await expect(
      waitFor(neverSettles, { timeoutMs: 30, intervalMs: 5, what: 'the stuck row' }),
    ).rejects.toThrow(
      /timed out after 30 ms waiting for the stuck row: the stuck row \(one probe\): no outcome after \d+ ms/,
    );
  });

  it('keeps the last probe error in its failure', async () => {
    const failing = () => Promise.reject(new Error('connection refused'));
    await expect(waitFor(failing, { timeoutMs: 10, intervalMs: 2, what: 'the database' })).rejects.toThrow(
      'timed out after 10 ms waiting for the database: connection refused',
    );
  });
});
