import { DomainEvent } from '@paygrid/contracts';
import { Executor } from '@paygrid/platform';
import { AccountRepository, AccountSettingsRow } from './account.repository';
import { AccountSettingsService } from './account-settings.service';

/** The settings rules without Postgres: a change is announced once with its version; no change, no event. */
const SUB = '10000000-0000-4000-8000-000000000001';
const MASTER = '10000000-0000-4000-8000-000000000000';

function setup(row: AccountSettingsRow | null) {
  let current = row;
  const accounts = {
    async updateCaptureWindow(_: Executor, _id: string, hours: number) {
      if (!current || current.capture_window_hours === hours) return null;
      current = { ...current, capture_window_hours: hours, settings_version: current.settings_version + 1 };
      return current;
    },
    async findSettings() {
      return current;
    },
  } as unknown as AccountRepository;
  const outbox: DomainEvent[] = [];
  const executor = {
    async query(sql: string, params: unknown[]) {
      if (sql.startsWith('INSERT INTO outbox')) outbox.push(JSON.parse(params[3] as string));
      return [];
    },
  } as unknown as Executor;
  return { service: new AccountSettingsService(accounts), executor, outbox };
}

describe('AccountSettingsService', () => {
  const sub: AccountSettingsRow = { account_id: SUB, parent_account_id: MASTER, capture_window_hours: 24, settings_version: 0 };

  it('announces a change as account.settings.updated (OPERATIONS) with the new version', async () => {
    const { service, executor, outbox } = setup(sub);
    const settings = await service.update(executor, { account_id: SUB, capture_window_hours: 1 });
    expect(settings).toEqual({ account_id: SUB, capture_window_hours: 1, settings_version: 1 });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      event_name: 'account.settings.updated',
      event_type: 'OPERATIONS',
      source_id: SUB,
      account_id: SUB,
      master_account_id: MASTER,
      data: settings,
    });
  });

  it('answers the current settings and announces nothing when the value does not change', async () => {
    const { service, executor, outbox } = setup(sub);
    expect(await service.update(executor, { account_id: SUB, capture_window_hours: 24 })).toEqual({
      account_id: SUB,
      capture_window_hours: 24,
      settings_version: 0,
    });
    expect(outbox).toEqual([]);
  });

  it('refuses an unknown account as account_not_found', async () => {
    const { service, executor } = setup(null);
    await expect(service.update(executor, { account_id: SUB, capture_window_hours: 2 })).rejects.toMatchObject({
      body: expect.objectContaining({ code: 'account_not_found' }),
    });
  });
});
