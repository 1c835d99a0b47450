import { Module } from '@nestjs/common';
import { CardholderCommands } from './cardholder.commands';
import { CardholderRepository } from './cardholder.repository';
import { CardholderService } from './cardholder.service';

/** Cardholders, their documents and their KYC review. */
@Module({
  providers: [CardholderRepository, CardholderService, CardholderCommands],
  exports: [CardholderRepository, CardholderService],
})
export class CardholderModule {}
