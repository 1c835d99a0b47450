import { Module } from '@nestjs/common';
import { InterimJobsModule } from '../jobs/interim-durable-jobs';
import { CardholderCommands } from './cardholder.commands';
import { CardholderRepository } from './cardholder.repository';
import { CardholderService } from './cardholder.service';

/** Cardholders, their documents and their KYC review. */
@Module({
  imports: [InterimJobsModule],
  providers: [CardholderRepository, CardholderService, CardholderCommands],
  exports: [CardholderRepository, CardholderService],
})
export class CardholderModule {}
