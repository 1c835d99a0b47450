import { randomUUID } from 'node:crypto';
import {
  CREDENTIAL_PERMISSIONS,
  CreateCredentialPayload,
  CredentialCommand,
  CredentialPermission,
  CredentialView,
  RevokeCredentialPayload,
} from '@paygrid/contracts';
import { isUuid } from '@paygrid/ids';
import { Column, printTable } from '../output/table';
import { listOption, stringOption } from './options';
import { CliContext, CliUsageError, CommandGroup, ParsedArgs, Subcommand } from './registry';

/**
 * `paygrid keys ...`: API credentials of merchant accounts, over the accounts service's command topic.
 * The clear API key is printed once, by `create`, and exists nowhere else afterwards.
 */
const KEY_ID_PREFIX = 'key_';

const columns: Column<CredentialView>[] = [
  { header: 'KEY ID', value: (key) => key.key_id },
  { header: 'CLIENT ID', value: (key) => key.client_id },
  { header: 'ACCOUNT', value: (key) => key.account_id },
  { header: 'LABEL', value: (key) => key.label ?? '' },
  { header: 'PERMISSIONS', value: (key) => key.permissions.join(',') || '-' },
  { header: 'IP ALLOW-LIST', value: (key) => key.ip_allowlist.join(',') || 'any' },
  { header: 'CREATED', value: (key) => key.created_at },
  { header: 'STATUS', value: (key) => (key.revoked_at ? `revoked ${key.revoked_at}` : 'active') },
];

const create: Subcommand = {
  name: 'create',
  usage: '--account <uuid> [--ip 1.2.3.4,10.0.0.0/8] [--permission sensitive_card_details] [--label text]',
  summary: 'issue a key for an account and print its API key once',
  family: 'accounts',
  positionals: { min: 0, max: 0 },
  options: {
    account: { type: 'string' },
    ip: { type: 'string', multiple: true },
    permission: { type: 'string', multiple: true },
    label: { type: 'string' },
  },
  async run(context, args) {
    const payload: CreateCredentialPayload = {
      account_id: accountOption(args, { required: true }) as string,
      ip_allowlist: listOption(args, 'ip'),
      permissions: permissionsOption(args),
    };
    const label = stringOption(args, 'label');
    if (label !== undefined) payload.label = label;
    const created = await context.bus.execute(CredentialCommand.create, payload);
    printKeys(context, [created]);
    context.out('');
    context.out(`API key: ${created.api_key}`);
    context.out('Store it now: the API key is shown only this once and cannot be recovered (only its hash is kept).');
  },
};

const list: Subcommand = {
  name: 'list',
  usage: '[--account <uuid>]',
  summary: 'list keys, of one account or of all',
  family: 'accounts',
  positionals: { min: 0, max: 0 },
  options: { account: { type: 'string' } },
  async run(context, args) {
    const accountId = accountOption(args, { required: false });
    const keys = await context.bus.execute(CredentialCommand.list, accountId === undefined ? {} : { account_id: accountId });
    if (keys.length === 0) {
      context.out(accountId === undefined ? 'No keys.' : `No keys for account ${accountId}.`);
      return;
    }
    printKeys(context, keys);
  },
};

const revoke: Subcommand = {
  name: 'revoke',
  usage: '<key_id|client_id>',
  summary: 'revoke a key at once (the gateway refuses it from its next request)',
  family: 'accounts',
  positionals: { min: 1, max: 1 },
  options: {},
  async run(context, args) {
    const [reference] = args.positionals;
    const payload: RevokeCredentialPayload = reference.startsWith(KEY_ID_PREFIX) ? { key_id: reference } : { client_id: reference };
    const revoked = await context.bus.execute(CredentialCommand.revoke, payload, { commandId: randomUUID() });
    context.out(`Revoked key ${revoked.key_id} (client id ${revoked.client_id}) at ${revoked.revoked_at}.`);
  },
};

export const keysCommands: CommandGroup = {
  name: 'keys',
  summary: 'API keys of merchant accounts',
  subcommands: [create, list, revoke],
};

function printKeys(context: CliContext, keys: CredentialView[]): void {
  printTable(context, columns, keys);
}

function accountOption(args: ParsedArgs, { required }: { required: boolean }): string | undefined {
  const account = stringOption(args, 'account');
  if (account === undefined) {
    if (required) throw new CliUsageError('--account <uuid> is required');
    return undefined;
  }
  if (!isUuid(account)) throw new CliUsageError(`--account must be an account id (uuid), got "${account}"`);
  return account;
}

function permissionsOption(args: ParsedArgs): CredentialPermission[] {
  const permissions = listOption(args, 'permission');
  const known: readonly string[] = CREDENTIAL_PERMISSIONS;
  const unknown = permissions.find((permission) => !known.includes(permission));
  if (unknown !== undefined) {
    throw new CliUsageError(`unknown permission "${unknown}" (known: ${CREDENTIAL_PERMISSIONS.join(', ')})`);
  }
  return [...new Set(permissions)] as CredentialPermission[];
}
