import { randomUUID } from 'node:crypto';
import {
  ListWebhookDeliveriesPayload,
  WebhookAttemptView,
  WebhookCommand,
  WebhookDeliveryView,
} from '@paygrid/contracts';
import { Column, renderTable } from '../output/table';
import { CliContext, CliUsageError, CommandGroup, ParsedArgs, Subcommand } from './registry';

/**
 * `paygrid webhooks ...`: the on-call tools of the webhook dispatcher (docs/webhooks.md, runbook), over
 * its command topic with operator scope (every account). Typical use after an endpoint outage:
 * `failed --endpoint <id>` to see the damage, `enable <id>` if the dispatcher disabled it, then
 * `replay --endpoint <id> --since <iso>`; `inspect <delivery_id>` shows every attempt of one delivery.
 */
const PAGE_SIZE = 100;
const EXCERPT_WIDTH = 60;

const deliveryColumns: Column<WebhookDeliveryView>[] = [
  { header: 'DELIVERY', value: (delivery) => delivery.delivery_id },
  { header: 'EVENT', value: (delivery) => delivery.event_id },
  { header: 'EVENT NAME', value: (delivery) => delivery.event_name },
  { header: 'ENDPOINT', value: (delivery) => delivery.endpoint_id },
  { header: 'ACCOUNT', value: (delivery) => delivery.account_id },
  { header: 'ATTEMPTS', value: (delivery) => String(delivery.attempt_count) },
  { header: 'LAST STATUS', value: (delivery) => lastResult(delivery) },
  { header: 'LAST ATTEMPT', value: (delivery) => delivery.last_attempt_time ?? '-' },
];

const attemptColumns: Column<WebhookAttemptView>[] = [
  { header: '#', value: (attempt) => String(attempt.attempt_number) },
  { header: 'TIME', value: (attempt) => attempt.attempt_time },
  { header: 'TRIGGER', value: (attempt) => attempt.trigger },
  {
    header: 'STATUS',
    value: (attempt) => (attempt.status_code === null ? '-' : String(attempt.status_code)),
  },
  { header: 'LATENCY', value: (attempt) => `${attempt.latency_ms} ms` },
  { header: 'RESPONSE / ERROR', value: (attempt) => oneLine(attempt.error ?? attempt.response_excerpt) },
];

const failed: Subcommand = {
  name: 'failed',
  usage: '[--endpoint <whep_id>] [--since <iso time>] [--account <account id>]',
  summary: `list failed deliveries, newest first (at most ${PAGE_SIZE})`,
  family: 'webhooks',
  positionals: { min: 0, max: 0 },
  options: { endpoint: { type: 'string' }, since: { type: 'string' }, account: { type: 'string' } },
  async run(context, args) {
    const payload: ListWebhookDeliveriesPayload = {
      page_size: PAGE_SIZE,
      page_number: 1,
      delivery_status: 'FAILED',
    };
    const endpoint = stringOption(args, 'endpoint');
    const since = stringOption(args, 'since');
    const account = stringOption(args, 'account');
    if (endpoint !== undefined) payload.endpoint_id = endpoint;
    if (since !== undefined) payload.create_start_time = isoOption(since, '--since');
    if (account !== undefined) payload.account_id = account;
    const page = await context.bus.execute(WebhookCommand.listDeliveries, payload);
    if (page.total_items === 0) {
      context.out('No failed deliveries.');
      return;
    }
    print(context, deliveryColumns, page.data);
    context.out('');
    const shown = page.data.length < page.total_items ? ` (showing the newest ${page.data.length})` : '';
    context.out(`${page.total_items} failed deliveries${shown}.`);
  },
};

const inspect: Subcommand = {
  name: 'inspect',
  usage: '<delivery_id>',
  summary: 'one delivery and the table of its attempts',
  family: 'webhooks',
  positionals: { min: 1, max: 1 },
  options: {},
  async run(context, args) {
    const [deliveryId] = args.positionals;
    const delivery = await context.bus.execute(WebhookCommand.retrieveDelivery, { delivery_id: deliveryId });
    context.out(`Delivery   ${delivery.delivery_id}  ${delivery.delivery_status}`);
    context.out(
      `Event      ${delivery.event_id}  ${delivery.event_name} (${delivery.event_type}, account ${delivery.event_account_id})`,
    );
    context.out(`Endpoint   ${delivery.endpoint_id}  ${delivery.url} (account ${delivery.account_id})`);
    context.out(`Created    ${delivery.create_time}`);
    if (delivery.next_attempt_time) context.out(`Next       ${delivery.next_attempt_time}`);
    else if (delivery.delivery_status === 'PENDING')
      context.out('Next       held: sent when its failing endpoint answers again (docs/webhooks.md §5)');
    context.out('');
    if (delivery.attempts.length === 0) context.out('No attempts yet.');
    else print(context, attemptColumns, delivery.attempts);
  },
};

const retry: Subcommand = {
  name: 'retry',
  usage: '<delivery_id>',
  summary: 'send one failed (or succeeded) delivery once more, now',
  family: 'webhooks',
  positionals: { min: 1, max: 1 },
  options: {},
  async run(context, args) {
    const [deliveryId] = args.positionals;
    const delivery = await context.bus.execute(
      WebhookCommand.retryDelivery,
      { delivery_id: deliveryId },
      { commandId: randomUUID() },
    );
    context.out(
      `Retrying delivery ${delivery.delivery_id} (attempt ${delivery.attempt_count + 1} is due now).`,
    );
    context.out(`Follow it with: paygrid webhooks inspect ${delivery.delivery_id}`);
  },
};

const replay: Subcommand = {
  name: 'replay',
  usage: '--endpoint <whep_id> --since <iso time>',
  summary: 'send every failed delivery of an endpoint created since a time once more',
  family: 'webhooks',
  positionals: { min: 0, max: 0 },
  options: { endpoint: { type: 'string' }, since: { type: 'string' } },
  async run(context, args) {
    const endpoint = stringOption(args, 'endpoint');
    const since = stringOption(args, 'since');
    if (endpoint === undefined) throw new CliUsageError('--endpoint <whep_id> is required');
    if (since === undefined) throw new CliUsageError('--since <iso time> is required');
    const result = await context.bus.execute(
      WebhookCommand.replayEndpoint,
      { endpoint_id: endpoint, since: isoOption(since, '--since') },
      { commandId: randomUUID() },
    );
    context.out(
      `Replaying ${result.replayed} failed deliveries of ${result.endpoint_id} created since ${result.since}.`,
    );
    if (result.replayed > 0)
      context.out(`Follow them with: paygrid webhooks failed --endpoint ${result.endpoint_id}`);
  },
};

const enable: Subcommand = {
  name: 'enable',
  usage: '<endpoint_id>',
  summary: 'enable an endpoint the dispatcher disabled (410, or failing for days)',
  family: 'webhooks',
  positionals: { min: 1, max: 1 },
  options: {},
  async run(context, args) {
    const [endpointId] = args.positionals;
    const endpoint = await context.bus.execute(
      WebhookCommand.enableEndpoint,
      { endpoint_id: endpointId },
      { commandId: randomUUID() },
    );
    context.out(`Endpoint ${endpoint.endpoint_id} (${endpoint.url}) is ${endpoint.status}.`);
    context.out(
      'Its failed deliveries are not resent by this; use: paygrid webhooks replay --endpoint <id> --since <iso>',
    );
  },
};

export const webhooksCommands: CommandGroup = {
  name: 'webhooks',
  summary: 'webhook deliveries: failures, attempts, retry and replay',
  subcommands: [failed, inspect, retry, replay, enable],
};

function print<T>(context: CliContext, columns: Column<T>[], rows: T[]): void {
  for (const line of renderTable(columns, rows)) context.out(line);
}

function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** ISO 8601 with a date at least; normalised to UTC so the service reads it unambiguously. */
function isoOption(value: string, flag: string): string {
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !Number.isFinite(time)) {
    throw new CliUsageError(`${flag} must be an ISO 8601 time such as 2026-03-01T12:00:00Z, got "${value}"`);
  }
  return new Date(time).toISOString();
}

function lastResult(delivery: WebhookDeliveryView): string {
  if (delivery.last_status_code !== null) return String(delivery.last_status_code);
  return delivery.last_error ? oneLine(delivery.last_error).slice(0, 30) : '-';
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_WIDTH ? `${flat.slice(0, EXCERPT_WIDTH - 1)}…` : flat;
}
