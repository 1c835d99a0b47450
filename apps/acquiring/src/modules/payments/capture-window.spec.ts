import { Executor } from '@paygrid/platform';
import { AccountSettingsRepository } from '../account-settings/account-settings.repository';
import { CaptureWindow } from './capture-window';

/** Decisions §7: the account's own window first, then the service default; sandbox clocks scale both. */
describe('CaptureWindow', () => {
  const executor = {} as Executor;
  const windowOf = (accountHours: number | undefined, config: Partial<ConstructorParameters<typeof CaptureWindow>[1]> = {}) => {
    const settings = { captureWindowHours: async () => accountHours } as unknown as AccountSettingsRepository;
    return new CaptureWindow(settings, {
      CAPTURE_WINDOW_HOURS: 24,
      CAPTURE_WINDOW_OVERRIDE_MS: 0,
      CAPTURE_WINDOW_HOUR_MS: 3_600_000,
      ...config,
    });
  };

  it("uses the account's setting, else the service default", async () => {
    expect(await windowOf(1).lengthMs(executor, 'acc')).toBe(3_600_000);
    expect(await windowOf(undefined, { CAPTURE_WINDOW_HOURS: 12 }).lengthMs(executor, 'acc')).toBe(12 * 3_600_000);
  });

  it('runs the sandbox clock for account windows and the override for accounts without one', async () => {
    const sandbox = { CAPTURE_WINDOW_OVERRIDE_MS: 6000, CAPTURE_WINDOW_HOUR_MS: 2000 };
    expect(await windowOf(1, sandbox).lengthMs(executor, 'acc')).toBe(2000);
    expect(await windowOf(3, sandbox).lengthMs(executor, 'acc')).toBe(6000);
    expect(await windowOf(undefined, sandbox).lengthMs(executor, 'acc')).toBe(6000);
    expect(await windowOf(undefined, { CAPTURE_WINDOW_HOUR_MS: 2000 }).lengthMs(executor, 'acc')).toBe(48_000);
  });

  it('closes the window that long after the authorisation', async () => {
    const authorizedAt = new Date('2026-01-01T10:00:00.000Z');
    expect((await windowOf(2).closesAt(executor, 'acc', authorizedAt)).toISOString()).toBe('2026-01-01T12:00:00.000Z');
  });
});
