import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { OpsQueuesController } from './ops-queues.controller';
import { OpsTokenGuard } from './ops-token.guard';

/** The on-call surfaces on the dispatcher's own port, behind OPS_TOKEN (Bull Board is mounted by main.ts). */
@Module({
  imports: [DeliveriesModule],
  controllers: [OpsQueuesController],
  providers: [OpsTokenGuard],
})
export class OpsModule {}
