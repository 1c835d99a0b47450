import { withDeadline } from './with-deadline';

describe('withDeadline', () => {
  it("passes the work's outcome through", async () => {
    await expect(withDeadline(Promise.resolve(7), 50, 'late')).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error('refused')), 50, 'late')).rejects.toThrow('refused');
  });

  it('rejects with the given message once the deadline passed without an outcome', async () => {
    await expect(
      withDeadline(new Promise(() => undefined), 10, 'the relay stopping: no outcome after 10 ms'),
    ).rejects.toThrow('the relay stopping: no outcome after 10 ms');
  });
});
