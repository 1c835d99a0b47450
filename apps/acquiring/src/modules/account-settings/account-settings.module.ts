import { Module } from '@nestjs/common';
import { AccountSettingsListener } from './account-settings.listener';
import { AccountSettingsRepository } from './account-settings.repository';

/** The accounts service's settings that acquiring applies (the capture window), kept from its events. */
@Module({
  providers: [AccountSettingsRepository, AccountSettingsListener],
  exports: [AccountSettingsRepository],
})
export class AccountSettingsModule {}
