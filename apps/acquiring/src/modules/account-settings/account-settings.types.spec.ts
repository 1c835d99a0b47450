import { settingsOf } from './account-settings.types';

describe('settingsOf (account.settings.updated data)', () => {
  it('reads the window and its version', () => {
    expect(settingsOf({ account_id: 'a1', capture_window_hours: 1, settings_version: 3 })).toEqual({
      accountId: 'a1',
      captureWindowHours: 1,
      version: 3,
    });
  });

  it.each([
    [{ capture_window_hours: 1, settings_version: 1 }],
    [{ account_id: 'a1', capture_window_hours: 0, settings_version: 1 }],
    [{ account_id: 'a1', capture_window_hours: 25, settings_version: 1 }],
    [{ account_id: 'a1', capture_window_hours: '1', settings_version: 1 }],
    [{ account_id: 'a1', capture_window_hours: 1 }],
    [{ account_id: 'a1', capture_window_hours: 1, settings_version: 0 }],
  ])('refuses what it cannot apply whole: %j', (data) => {
    expect(settingsOf(data)).toBeUndefined();
  });
});
