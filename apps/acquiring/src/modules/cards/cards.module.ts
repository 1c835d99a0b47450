import { Module } from '@nestjs/common';
import { CardVault, deriveKey } from '@paygrid/card-crypto';
import { ACQUIRING_CONFIG, AcquiringConfig } from '../../config';
import { CardTransport } from './card-transport';

/**
 * Card data in acquiring (architecture rule 7): CardTransport opens the cards the gateway sealed, the
 * vault keeps saved card numbers at rest under CARD_ENCRYPTION_KEY (its `v1` format: one unnamed key),
 * with the saved card's id as associated data and a fingerprint key derived from the same secret.
 */
export function acquiringCardVault(config: Pick<AcquiringConfig, 'CARD_ENCRYPTION_KEY'>): CardVault {
  return new CardVault({
    active: { id: null, key: config.CARD_ENCRYPTION_KEY },
    fingerprint: deriveKey(config.CARD_ENCRYPTION_KEY, 'paygrid.card-fingerprint'),
  });
}

@Module({
  providers: [
    CardTransport,
    { provide: CardVault, useFactory: acquiringCardVault, inject: [ACQUIRING_CONFIG] },
  ],
  exports: [CardTransport, CardVault],
})
export class CardsModule {}
