import type { CommandEnvelope, CommandReply, DomainEvent, SecureDetailsView } from '@paygrid/contracts';
import type { EnvelopeA, EnvelopeB } from '@paygrid/platform';
import type { IssuedToken } from '../auth/token.service';
import type { EchoView } from '../diagnostics/diagnostics.controller';
import type { BusCommandShapes, BusEventShapes } from './bus-catalogue';

/**
 * The root from which wire-schemas.generated.ts is generated (ts-json-schema-generator): every type
 * that crosses a wire, on the bus (commands, replies, events) or over HTTP (the results of those
 * commands, the gateway's own answers and the two error envelopes of spec §7). Each named type it
 * reaches becomes one schema, shared by the OpenAPI and the AsyncAPI document.
 */
export interface WireTypes {
  commands: BusCommandShapes;
  events: BusEventShapes;
  envelopes: {
    command: CommandEnvelope;
    reply: CommandReply;
    event: DomainEvent;
    errorA: EnvelopeA;
    errorB: EnvelopeB;
  };
  gateway: {
    token: IssuedToken;
    echo: EchoView;
    secureDetails: SecureDetailsView;
  };
}
