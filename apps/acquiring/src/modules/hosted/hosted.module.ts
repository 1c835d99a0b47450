import { Module } from '@nestjs/common';
import { CardsModule } from '../cards/cards.module';
import { ConnectorsModule } from '../connectors/connectors.module';
import { CustomersModule } from '../customers/customers.module';
import { PaymentsModule } from '../payments/payments.module';
import { HostedCommands } from './hosted.commands';
import { HostedService } from './hosted.service';

/** What the gateway's hosted checkout and 3-D Secure pages ask of acquiring. */
@Module({
  imports: [PaymentsModule, CustomersModule, CardsModule, ConnectorsModule],
  providers: [HostedService, HostedCommands],
})
export class HostedModule {}
