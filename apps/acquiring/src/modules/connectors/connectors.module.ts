import { Module } from '@nestjs/common';
import { CARD_CONNECTOR } from './connector';
import { SandboxConnector } from './sandbox.connector';

/** The card processor behind CardConnector: the sandbox here; a real acquirer's connector replaces it. */
@Module({
  providers: [{ provide: CARD_CONNECTOR, useClass: SandboxConnector }],
  exports: [CARD_CONNECTOR],
})
export class ConnectorsModule {}
