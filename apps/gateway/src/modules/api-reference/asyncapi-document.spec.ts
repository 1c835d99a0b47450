import { Parser } from '@asyncapi/parser';
import {
  AccountCommand,
  AccountEvents,
  AcquiringCommands,
  AcquiringEvents,
  CommandTopics,
  EVENT_ENVELOPE_VERSION,
  EventTopics,
  replyTopicOf,
  WebhookCommand,
  CredentialCommand,
  WebhookEvents,
} from '@paygrid/contracts';
import { DocumentSchemas } from '@paygrid/testing';
import { buildAsyncApiDocument, channelNames } from './asyncapi-document';

/**
 * The AsyncAPI document of the bus: valid for the AsyncAPI parser, and complete: every topic, every
 * command with its reply, every event with its category and envelope version, taken from the maps
 * libs/contracts exports.
 */
describe('AsyncAPI document', () => {
  const document = buildAsyncApiDocument('0.0.0-test');
  const schemas = new DocumentSchemas(document);

  it('is a valid AsyncAPI 3.0 document', async () => {
    const diagnostics = await new Parser().validate(JSON.stringify(document));
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 0);
    expect(errors.map((error) => `${error.path.join('.')}: ${error.message}`)).toEqual([]);
  });

  it('has every topic of the platform', () => {
    const addresses = Object.values(document.channels).map((channel) => channel.address).sort();
    const topics = Object.values(CommandTopics).flatMap((topic) => [topic, replyTopicOf(topic)]);
    expect(addresses).toEqual([...topics, ...Object.values(EventTopics)].map((topic) => `{stack}.${topic}`).sort());
  });

  it('has every command on its family topic, each with its reply', () => {
    const families = {
      accounts: [AccountCommand, CredentialCommand],
      acquiring: [AcquiringCommands],
      webhooks: [WebhookCommand],
    };
    for (const [family, commands] of Object.entries(families)) {
      const names = channelNames({ family: family as keyof typeof families });
      const types = commands.flatMap((map) =>
        Object.values(map as Record<string, string | { type: string }>).map((entry) => (typeof entry === 'string' ? entry : entry.type)),
      );
      for (const type of [...types, 'system.ping']) {
        expect({ type, command: document.channels[names.commands].messages[type] }).toEqual({ type, command: { $ref: `#/components/messages/${type}` } });
        expect({ type, reply: document.channels[names.replies].messages[`${type}.reply`] }).toEqual({
          type,
          reply: { $ref: `#/components/messages/${type}.reply` },
        });
        expect(document.operations[`${family}.handle.${type}`]).toMatchObject({ action: 'receive', reply: expect.any(Object) });
      }
    }
  });

  it('has every event with its data schema and envelope version', () => {
    const families = { accounts: AccountEvents, acquiring: AcquiringEvents, webhooks: WebhookEvents };
    for (const [family, events] of Object.entries(families)) {
      const names = channelNames({ family: family as keyof typeof families });
      for (const name of Object.values(events)) {
        expect({ name, message: document.channels[names.events].messages[name] }).toEqual({ name, message: { $ref: `#/components/messages/${name}` } });
        expect(document.components.messages[name].payload).toMatchObject({
          allOf: [{ $ref: '#/components/schemas/DomainEvent' }, { properties: { version: { const: EVENT_ENVELOPE_VERSION } } }],
        });
      }
    }
  });

  it('tells a well-formed command, reply and event from a wrong one', () => {
    const command = {
      type: 'acquiring.refunds.retrieve',
      command_id: null,
      actor: null,
      payload: { refund_id: 're_1' },
      sent_at: '2026-03-01T12:00:00.000Z',
    };
    const payloadOf = (message: string) => `#/components/messages/${message.replace(/~/g, '~0').replace(/\//g, '~1')}/payload`;
    expect(schemas.problems(payloadOf('acquiring.refunds.retrieve'), command)).toEqual([]);
    expect(schemas.problems(payloadOf('acquiring.refunds.retrieve'), { ...command, payload: { refund: 're_1' } })).not.toEqual([]);
    expect(schemas.problems(payloadOf('acquiring.refunds.retrieve'), { ...command, type: 'acquiring.refunds.list' })).not.toEqual([]);

    const refusal = { ok: false, error: { status: 400, body: { type: 'invalid_request_error', code: 'resource_not_found', message: 'refund not found' } } };
    expect(schemas.problems(payloadOf('acquiring.refunds.retrieve.reply'), refusal)).toEqual([]);
    expect(schemas.problems(payloadOf('acquiring.refunds.retrieve.reply'), { ok: true, result: { refund_id: 're_1' } })).not.toEqual([]);

    const event = {
      event_id: '6f1c2a9e-5b1d-4c3e-8a7f-0d9e8c7b6a51',
      event_name: 'webhook.endpoint.disabled',
      event_type: 'OPERATIONS',
      version: EVENT_ENVELOPE_VERSION,
      source_id: 'whep_1',
      account_id: 'a',
      master_account_id: 'a',
      create_time: '2026-03-01T12:00:00.000Z',
      data: { endpoint_id: 'whep_1', account_id: 'a', url: 'https://x.example', reason: 'gone', failing_since: null, disabled_time: '2026-03-01T12:00:00.000Z' },
    };
    expect(schemas.problems(payloadOf('webhook.endpoint.disabled'), event)).toEqual([]);
    expect(schemas.problems(payloadOf('webhook.endpoint.disabled'), { ...event, event_type: 'ACQUIRING' })).not.toEqual([]);
    expect(schemas.problems(payloadOf('webhook.endpoint.disabled'), { ...event, version: 'V2.0.0' })).not.toEqual([]);
  });
});
