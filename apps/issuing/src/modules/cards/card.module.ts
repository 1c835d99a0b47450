import { Module } from '@nestjs/common';
import { BalancesModule } from '../balances/issuing-balances';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CardholderModule } from '../cardholders/cardholder.module';
import { CryptoModule } from '../crypto/card-mint';
import { PoolModule } from '../pool/pool.service';
import { CardCommands } from './card.commands';
import { CardOrderRepository } from './card-order.repository';
import { CardOrderService } from './card-order.service';
import { CardRepository } from './card.repository';
import { CardService } from './card.service';

/** Cards, their orders and their money. */
@Module({
  imports: [CatalogueModule, CardholderModule, PoolModule, BalancesModule, CryptoModule],
  providers: [CardRepository, CardOrderRepository, CardService, CardOrderService, CardCommands],
  /** The authorization module cancels used one-time cards through the card's own status path. */
  exports: [CardService],
})
export class CardModule {}
