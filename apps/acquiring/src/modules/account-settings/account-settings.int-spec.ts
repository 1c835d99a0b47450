import { randomUUID } from 'node:crypto';
import { AccountEvents, DomainEvent } from '@paygrid/contracts';
import { aDomainEvent, waitFor } from '@paygrid/testing';
import { AcquiringService, startAcquiring } from '../../test/acquiring-service';
import { CaptureWindow } from '../payments/capture-window';
import { AccountSettingsListener } from './account-settings.listener';

/**
 * The accounts service's capture window reaches acquiring (issue 13 item 8): account.settings.updated on
 * the accounts topic is kept in account_settings, newest settings_version first, and CaptureWindow applies
 * it. Against the real bus and Postgres; the ordering cases call the subscriber's handler one event after
 * another so "late" and "repeated" are exact, not a race.
 */
describe('account settings from the accounts event stream', () => {
  let service: AcquiringService;

  beforeAll(async () => {
    service = await startAcquiring({ env: { CAPTURE_WINDOW_HOUR_MS: '1000', CAPTURE_WINDOW_OVERRIDE_MS: '0' } });
  }, 120_000);

  afterAll(async () => {
    await service?.close();
  });

  const settingsEvent = (accountId: string, hours: unknown, version: unknown): DomainEvent =>
    aDomainEvent({
      event_name: AccountEvents.settingsUpdated,
      event_type: 'OPERATIONS',
      source_id: accountId,
      account_id: accountId,
      data: { account_id: accountId, capture_window_hours: hours, settings_version: version },
    });

  const stored = async (accountId: string) =>
    (await service.dataSource.query('SELECT capture_window_hours, settings_version FROM account_settings WHERE account_id = $1', [accountId]))[0];

  it('learns a window published on the accounts topic and times captures by it', async () => {
    const accountId = randomUUID();
    const writer = await service.stack.eventWriter();
    await writer.publish([settingsEvent(accountId, 2, 1)], 'accounts');
    await waitFor(async () => ((await stored(accountId))?.settings_version === 1 ? true : undefined), {
      what: 'acquiring to keep the published window',
    });
    expect(await stored(accountId)).toEqual({ capture_window_hours: 2, settings_version: 1 });
    expect(await service.app.get(CaptureWindow).lengthMs(service.dataSource, accountId)).toBe(2 * 1000);
  });

  it('keeps the newest version whatever the order or repetition, and skips what it cannot read', async () => {
    const accountId = randomUUID();
    const listener = service.app.get(AccountSettingsListener);
    expect(await listener.apply(settingsEvent(accountId, 3, 2))).toBe('applied');
    expect(await listener.apply(settingsEvent(accountId, 1, 1))).toBe('duplicate');
    expect(await listener.apply(settingsEvent(accountId, 5, 2))).toBe('duplicate');
    expect(await listener.apply(settingsEvent(accountId, 30, 9))).toBe('duplicate');
    expect(await listener.apply({ ...settingsEvent(accountId, 7, 9), event_name: AccountEvents.created })).toBe('duplicate');
    expect(await stored(accountId)).toEqual({ capture_window_hours: 3, settings_version: 2 });
    expect(await listener.apply(settingsEvent(accountId, 4, 3))).toBe('applied');
    expect(await stored(accountId)).toEqual({ capture_window_hours: 4, settings_version: 3 });
  });
});
