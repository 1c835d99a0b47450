import { Module } from '@nestjs/common';
import { BalancesModule } from '../balances/issuing-balances';
import { PoolModule } from '../pool/pool.service';
import { AccountProvisioning } from './account-provisioning.service';
import { AccountsEventsListener } from './accounts-events.listener';
import { CatalogueCommands } from './catalogue.commands';
import { CatalogueRepository } from './catalogue.repository';

/** Per-account card products, card arts, and the provisioning that creates them. */
@Module({
  imports: [PoolModule, BalancesModule],
  providers: [CatalogueRepository, AccountProvisioning, AccountsEventsListener, CatalogueCommands],
  exports: [CatalogueRepository, AccountProvisioning],
})
export class CatalogueModule {}
