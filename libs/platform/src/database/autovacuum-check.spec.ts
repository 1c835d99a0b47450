import { warnWhenAutovacuumIsOff } from './autovacuum-check';

describe('the boot check of autovacuum', () => {
  const serverSaying = (setting: string) => ({
    query: jest.fn().mockResolvedValue([{ autovacuum: setting }]),
  });

  it('warns, once, naming the setting, when the server runs without autovacuum', async () => {
    const logger = { warn: jest.fn() };
    const server = serverSaying('off');
    await expect(warnWhenAutovacuumIsOff(server, logger)).resolves.toBe(false);
    expect(server.query).toHaveBeenCalledWith('SHOW autovacuum');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toEqual({ autovacuum: 'off' });
    expect(logger.warn.mock.calls[0][1]).toContain('docs/operations.md');

    // A second app of the same process (a test process boots many) does not say it again.
    await expect(warnWhenAutovacuumIsOff(serverSaying('off'), logger)).resolves.toBe(false);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('says nothing when autovacuum is on', async () => {
    const logger = { warn: jest.fn() };
    await expect(warnWhenAutovacuumIsOff(serverSaying('on'), logger)).resolves.toBe(true);
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
