import { allTopics } from '@paygrid/contracts';
import { BusCatalogue, BusFamily, readBusCatalogue } from './bus-catalogue';
import { JsonSchema, pickSchemas, schemaRef } from './json-schema';
import { COMMAND_SHAPES, EVENT_SHAPES, WIRE_SCHEMAS } from './wire-schemas.generated';

/**
 * The AsyncAPI 3.0 document of the bus, for the services and internal subscribers: per family its
 * command topic (every command type with its payload), its reply topic (each command's result or
 * refusal) and its event topic (every event with its data, category and envelope version). Built
 * from the bus catalogue (the one adapter onto libs/contracts) and the schemas generated from the
 * contracts' types, the same ones the OpenAPI document uses for HTTP answers.
 *
 * Operations are described from the owning service's side: it receives each command and replies,
 * and it sends its events.
 */
export type AsyncApiDocument = {
  asyncapi: '3.0.0';
  channels: Record<string, { address: string; messages: Record<string, JsonSchema> } & JsonSchema>;
  operations: Record<string, JsonSchema>;
  components: { schemas: Record<string, JsonSchema>; messages: Record<string, AsyncApiMessage> };
} & JsonSchema;

export interface AsyncApiMessage {
  name: string;
  title: string;
  summary?: string;
  contentType: string;
  headers: JsonSchema;
  payload: JsonSchema;
  [field: string]: unknown;
}

const CONTENT_TYPE = 'application/json';
const KAFKA_BINDING_VERSION = '0.5.0';

const DESCRIPTION = `
The Kafka topics of the Paygrid platform. Every value is JSON.

**Commands** (request/reply, Nest's Kafka transport): the gateway (or an operator's CLI) sends a
command envelope \`{type, command_id, actor, payload, sent_at}\` to a family's command topic; the
owning service answers on \`<topic>.reply\` with \`{ok: true, result}\` or \`{ok: false, error}\`, the
error being an HTTP status and one of the API's two error envelopes. Header \`kafka_correlationId\` pairs
a reply with its command. \`command_id\` (null for reads) lets a service apply a write at most once
and answer a repeat with the stored reply. \`actor\` is the acting account as the gateway resolved it
(null for hosted pages, token issuance and operators).

**Events**: each service appends its events to an outbox in the transaction of the change and relays
them to its event topic, keyed by \`source_id\`, at least once (consumers deduplicate by \`event_id\`).
\`data\` is the resource as the API returns it: cards masked, never a CVC. \`version\` is the
envelope's version; a breaking change of an event's data gets a new version.
`;

const COMMAND_HEADERS: JsonSchema = {
  type: 'object',
  required: ['kafka_correlationId', 'kafka_replyTopic', 'kafka_replyPartition'],
  properties: {
    kafka_correlationId: { type: 'string', description: 'Set by the sender; its reply carries the same.' },
    kafka_replyTopic: { type: 'string', description: 'Where the reply goes (`<command topic>.reply`).' },
    kafka_replyPartition: { type: 'string', description: 'The reply partition the sender listens on.' },
    'x-request-id': { type: 'string', description: 'Correlation id of the HTTP request, for the logs.' },
  },
};

const REPLY_HEADERS: JsonSchema = {
  type: 'object',
  required: ['kafka_correlationId'],
  properties: {
    kafka_correlationId: { type: 'string', description: 'The correlation id of the command answered.' },
    'kafka_nest-is-disposed': { description: 'Present: the last message of this reply.' },
  },
};

const EVENT_HEADERS: JsonSchema = {
  type: 'object',
  required: ['event-id'],
  properties: {
    'event-id': { type: 'string', description: 'Equal to the payload\'s event_id.' },
    'x-request-id': { type: 'string', description: 'Correlation id of the request that caused the change.' },
  },
};

export function buildAsyncApiDocument(version: string, catalogue: BusCatalogue = readBusCatalogue()): AsyncApiDocument {
  const partitions = new Map(allTopics().map((topic) => [topic.name, topic.partitions]));
  const channels: AsyncApiDocument['channels'] = {};
  const operations: AsyncApiDocument['operations'] = {};
  const messages: Record<string, AsyncApiMessage> = {};

  for (const family of catalogue.families) {
    const names = channelNames(family);
    channels[names.commands] = channel(family.commandTopic, partitions, `Commands of the ${family.family} service.`);
    channels[names.replies] = channel(family.replyTopic, partitions, `Replies of the ${family.family} service.`);
    channels[names.events] = channel(family.eventTopic, partitions, `Events of the ${family.family} service.`);

    for (const type of family.commands) {
      // The ping is answered by every family alike: one message serves them all.
      messages[type] ??= commandMessage(type);
      messages[`${type}.reply`] ??= replyMessage(type);
      channels[names.commands].messages[type] = { $ref: `#/components/messages/${type}` };
      channels[names.replies].messages[`${type}.reply`] = { $ref: `#/components/messages/${type}.reply` };
      operations[`${family.family}.handle.${type}`] = {
        action: 'receive',
        title: type,
        channel: { $ref: `#/channels/${names.commands}` },
        messages: [{ $ref: `#/channels/${names.commands}/messages/${escapePointer(type)}` }],
        reply: {
          channel: { $ref: `#/channels/${names.replies}` },
          messages: [{ $ref: `#/channels/${names.replies}/messages/${escapePointer(`${type}.reply`)}` }],
        },
        tags: [{ name: family.family }],
      };
    }

    for (const event of family.events) {
      messages[event] = eventMessage(event, catalogue.eventEnvelopeVersion);
      channels[names.events].messages[event] = { $ref: `#/components/messages/${event}` };
      operations[`${family.family}.publish.${event}`] = {
        action: 'send',
        title: event,
        channel: { $ref: `#/channels/${names.events}` },
        messages: [{ $ref: `#/channels/${names.events}/messages/${escapePointer(event)}` }],
        tags: [{ name: family.family }],
      };
    }
  }

  return {
    asyncapi: '3.0.0',
    info: { title: 'Paygrid bus', version, description: DESCRIPTION.trim() },
    defaultContentType: CONTENT_TYPE,
    servers: {
      broker: {
        host: '127.0.0.1:9092',
        protocol: 'kafka',
        description: 'The local broker; deployments name theirs in KAFKA_BROKERS.',
      },
    },
    channels,
    operations,
    components: { schemas: pickSchemas([messages], WIRE_SCHEMAS), messages },
  };
}

/** Channel ids of a family: `accountsCommands`, `accountsReplies`, `accountsEvents`. */
export function channelNames(family: Pick<BusFamily, 'family'>) {
  return {
    commands: `${family.family}Commands`,
    replies: `${family.family}Replies`,
    events: `${family.family}Events`,
  };
}

/**
 * A topic's address is its logical name under the stack's prefix (KAFKA_PREFIX), a channel parameter:
 * `{stack}.acquiring.commands` is `paygrid.acquiring.commands` on a default deployment.
 */
export const STACK_PARAMETER = '{stack}';

export function topicAddress(address: string, stack: string): string {
  return address.replace(STACK_PARAMETER, stack);
}

function channel(logicalTopic: string, partitions: Map<string, number>, description: string) {
  return {
    address: `${STACK_PARAMETER}.${logicalTopic}`,
    description,
    parameters: {
      stack: { description: 'The stack prefix of every topic (KAFKA_PREFIX).', default: 'paygrid' },
    },
    messages: {} as Record<string, JsonSchema>,
    bindings: { kafka: { partitions: partitions.get(logicalTopic), bindingVersion: KAFKA_BINDING_VERSION } },
  };
}

function shapeOf(shapes: Record<string, JsonSchema>, key: string, part: string): JsonSchema {
  const schema = (shapes[key]?.properties as Record<string, JsonSchema> | undefined)?.[part];
  if (!schema) throw new Error(`no ${part} schema for ${key}: regenerate wire-schemas.generated.ts`);
  return schema;
}

/** The schema of the command envelope carrying `type`. */
function commandPayloadSchema(type: string): JsonSchema {
  return {
    allOf: [
      schemaRef('CommandEnvelope'),
      {
        type: 'object',
        properties: { type: { const: type }, payload: shapeOf(COMMAND_SHAPES, type, 'payload') },
      },
    ],
  };
}

/** The schema of the reply to `type`: its result, or a refusal in an API error envelope. */
function replyPayloadSchema(type: string): JsonSchema {
  return {
    oneOf: [
      {
        type: 'object',
        required: ['ok', 'result'],
        additionalProperties: false,
        properties: { ok: { const: true }, result: shapeOf(COMMAND_SHAPES, type, 'result') },
      },
      {
        type: 'object',
        required: ['ok', 'error'],
        additionalProperties: false,
        properties: { ok: { const: false }, error: schemaRef('ReplyError') },
      },
    ],
  };
}

/** The schema of the event envelope of `name`, its category, version and data fixed. */
function eventPayloadSchema(name: string, version: string): JsonSchema {
  return {
    allOf: [
      schemaRef('DomainEvent'),
      {
        type: 'object',
        properties: {
          event_name: { const: name },
          event_type: shapeOf(EVENT_SHAPES, name, 'category'),
          version: { const: version },
          data: shapeOf(EVENT_SHAPES, name, 'data'),
        },
      },
    ],
  };
}

function commandMessage(type: string): AsyncApiMessage {
  return {
    name: type,
    title: `Command ${type}`,
    contentType: CONTENT_TYPE,
    headers: COMMAND_HEADERS,
    payload: commandPayloadSchema(type),
    correlationId: { location: '$message.header#/kafka_correlationId' },
    bindings: { kafka: { key: { type: 'string', description: 'The command id, else a fresh uuid.' }, bindingVersion: KAFKA_BINDING_VERSION } },
  };
}

function replyMessage(type: string): AsyncApiMessage {
  return {
    name: `${type}.reply`,
    title: `Reply to ${type}`,
    contentType: CONTENT_TYPE,
    headers: REPLY_HEADERS,
    payload: replyPayloadSchema(type),
    correlationId: { location: '$message.header#/kafka_correlationId' },
  };
}

function eventMessage(name: string, version: string): AsyncApiMessage {
  return {
    name,
    title: `Event ${name} (${version})`,
    summary: `Envelope version ${version}.`,
    contentType: CONTENT_TYPE,
    headers: EVENT_HEADERS,
    payload: eventPayloadSchema(name, version),
    bindings: { kafka: { key: { type: 'string', description: 'The source_id.' }, bindingVersion: KAFKA_BINDING_VERSION } },
  };
}

/** JSON pointer escaping of one segment (RFC 6901). */
function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
