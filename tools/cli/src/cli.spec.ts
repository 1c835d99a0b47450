import { CommandDefinition, CreatedCredential, CredentialCommand, CredentialView } from '@paygrid/contracts';
import { Errors } from '@paygrid/platform';
import { ConnectedBus, EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './cli';
import { CliFailure } from './commands/registry';

const ACCOUNT = '5a0d0b0c-0000-4000-8000-000000000001';

const view: CredentialView = {
  key_id: 'key_01JTESTKEY',
  client_id: 'cli_abcdefghijklmnopqrst',
  account_id: ACCOUNT,
  label: 'office',
  ip_allowlist: ['10.0.0.0/8'],
  permissions: ['sensitive_card_details'],
  created_at: '2026-01-01T00:00:00.000Z',
  revoked_at: null,
};

function harness(answer: (type: string, payload: unknown) => unknown = () => view) {
  const out: string[] = [];
  const err: string[] = [];
  const sent: { type: string; payload: unknown; commandId?: string }[] = [];
  let closed = false;
  const bus: ConnectedBus = {
    async execute<C extends CommandDefinition>(definition: C, payload: unknown, options: { commandId?: string } = {}) {
      sent.push({ type: definition.type, payload, commandId: options.commandId });
      return answer(definition.type, payload) as never;
    },
    ready: async () => undefined,
    close: async () => {
      closed = true;
    },
  };
  const io = { connect: async () => bus, out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  return { io, out, err, sent, wasClosed: () => closed };
}

describe('paygrid keys create', () => {
  it('sends the account, IPs, permission and label, prints the key once with a warning', async () => {
    const created: CreatedCredential = { ...view, api_key: 'sk_shown_once_000000000000000000000000000' };
    const { io, out, sent, wasClosed } = harness(() => created);
    const code = await runCli(
      ['keys', 'create', '--account', ACCOUNT, '--ip', '1.2.3.4,10.0.0.0/8', '--permission', 'sensitive_card_details', '--label', 'office'],
      io,
    );
    expect(code).toBe(EXIT_OK);
    expect(sent).toEqual([
      {
        type: CredentialCommand.create.type,
        payload: { account_id: ACCOUNT, ip_allowlist: ['1.2.3.4', '10.0.0.0/8'], permissions: ['sensitive_card_details'], label: 'office' },
        commandId: undefined,
      },
    ]);
    expect(out[0]).toMatch(/^KEY ID\s+CLIENT ID\s+ACCOUNT\s+LABEL\s+PERMISSIONS\s+IP ALLOW-LIST\s+CREATED\s+STATUS$/);
    expect(out.filter((line) => line.includes(created.api_key))).toEqual([`API key: ${created.api_key}`]);
    expect(out.at(-1)).toContain('shown only this once');
    expect(wasClosed()).toBe(true);
  });

  it('refuses a missing or malformed account id before connecting', async () => {
    const { io, err, sent } = harness();
    expect(await runCli(['keys', 'create'], io)).toBe(EXIT_USAGE);
    expect(await runCli(['keys', 'create', '--account', 'acme'], io)).toBe(EXIT_USAGE);
    expect(err).toContain('error: --account <uuid> is required');
    expect(err).toContain('error: --account must be an account id (uuid), got "acme"');
    expect(sent).toEqual([]);
  });

  it('refuses an unknown permission and an unknown option', async () => {
    const { io, err } = harness();
    expect(await runCli(['keys', 'create', '--account', ACCOUNT, '--permission', 'god_mode'], io)).toBe(EXIT_USAGE);
    expect(await runCli(['keys', 'create', '--account', ACCOUNT, '--colour', 'red'], io)).toBe(EXIT_USAGE);
    expect(err[0]).toBe('error: unknown permission "god_mode" (known: sensitive_card_details)');
    expect(err.some((line) => line.includes("'--colour'"))).toBe(true);
  });
});

describe('paygrid keys list', () => {
  it('prints a table with one row per key, revoked ones marked', async () => {
    const revoked = { ...view, key_id: 'key_01JREVOKED', revoked_at: '2026-02-01T00:00:00.000Z', ip_allowlist: [], label: null };
    const { io, out, sent } = harness(() => [view, revoked]);
    expect(await runCli(['keys', 'list', '--account', ACCOUNT], io)).toBe(EXIT_OK);
    expect(sent[0].payload).toEqual({ account_id: ACCOUNT });
    expect(out).toHaveLength(4);
    expect(out[2]).toContain('active');
    expect(out[3]).toContain('revoked 2026-02-01T00:00:00.000Z');
    expect(out[3]).toContain('any');
  });

  it('says so when there are no keys', async () => {
    const { io, out } = harness(() => []);
    expect(await runCli(['keys', 'list'], io)).toBe(EXIT_OK);
    expect(out).toEqual(['No keys.']);
  });
});

describe('paygrid keys revoke', () => {
  it('revokes by key id or by client id, with a fresh command id', async () => {
    const { io, out, sent } = harness(() => ({ ...view, revoked_at: '2026-03-01T00:00:00.000Z' }));
    expect(await runCli(['keys', 'revoke', 'key_01JTESTKEY'], io)).toBe(EXIT_OK);
    expect(await runCli(['keys', 'revoke', 'cli_abcdefghijklmnopqrst'], io)).toBe(EXIT_OK);
    expect(sent.map((command) => command.payload)).toEqual([{ key_id: 'key_01JTESTKEY' }, { client_id: 'cli_abcdefghijklmnopqrst' }]);
    expect(sent[0].commandId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out[0]).toBe('Revoked key key_01JTESTKEY (client id cli_abcdefghijklmnopqrst) at 2026-03-01T00:00:00.000Z.');
  });

  it('wants exactly one reference', async () => {
    const { io, err } = harness();
    expect(await runCli(['keys', 'revoke'], io)).toBe(EXIT_USAGE);
    expect(await runCli(['keys', 'revoke', 'a', 'b'], io)).toBe(EXIT_USAGE);
    expect(err).toContain('error: unexpected argument "b"');
  });

  it('reports a refusal with its code and exits 1', async () => {
    const { io, err } = harness(() => {
      throw Errors.resourceNotFound('credential');
    });
    expect(await runCli(['keys', 'revoke', 'cli_nobody'], io)).toBe(EXIT_FAILED);
    expect(err).toEqual(['error: credential not found (resource_not_found, HTTP 400)']);
  });
});

describe('paygrid', () => {
  it('prints the usage and exits 2 without arguments, 0 for help', async () => {
    const { io, err, out } = harness();
    expect(await runCli([], io)).toBe(EXIT_USAGE);
    expect(err[0]).toBe('usage: paygrid <command> <subcommand> [options]');
    expect(await runCli(['help'], io)).toBe(EXIT_OK);
    expect(out.join('\n')).toContain('paygrid keys revoke <key_id|client_id>');
  });

  it('refuses an unknown command', async () => {
    const { io, err } = harness();
    expect(await runCli(['webhookz', 'list'], io)).toBe(EXIT_USAGE);
    expect(err[0]).toBe('error: unknown command "webhookz"');
  });

  it('exits 1 with a clear message when the stack does not answer', async () => {
    const { io, err } = harness();
    io.connect = async () => {
      throw new CliFailure('no Kafka broker answered at 127.0.0.1:9092 within 100 ms; is the stack running (npm start)?');
    };
    expect(await runCli(['keys', 'list'], io)).toBe(EXIT_FAILED);
    expect(err).toEqual(['error: no Kafka broker answered at 127.0.0.1:9092 within 100 ms; is the stack running (npm start)?']);
  });
});
