import { AccountSettingsView } from '@paygrid/contracts';

/** An account's settings that acquiring applies (decisions §7), with the version the accounts service gave them. */
export interface AccountSettings {
  accountId: string;
  captureWindowHours: number;
  version: number;
}

/**
 * The settings in an account.settings.updated event's data, or undefined when the data is not a settings
 * object this version understands (a consumer skips what it cannot read rather than apply half of it).
 */
export function settingsOf(data: Record<string, unknown>): AccountSettings | undefined {
  const { account_id: accountId, capture_window_hours: hours, settings_version: version } = data as Partial<AccountSettingsView>;
  if (typeof accountId !== 'string' || accountId === '') return undefined;
  if (!Number.isInteger(hours) || (hours as number) < 1 || (hours as number) > 24) return undefined;
  if (!Number.isInteger(version) || (version as number) < 1) return undefined;
  return { accountId, captureWindowHours: hours as number, version: version as number };
}
