import { Injectable, Module } from '@nestjs/common';
import { BulkCreateView, CardCurrency, sandboxPoolCard, SANDBOX_POOL_SIZE } from '@paygrid/contracts';
import { uuidV4 } from '@paygrid/ids';
import { Executor } from '@paygrid/platform';
import { CardMint, CryptoModule, StoredCardNumber } from '../crypto/card-mint';
import { SecretHasher } from '../crypto/card-secrets';
import { Product } from '../catalogue/product.types';
import { NewPoolCard, PoolRepository } from './pool.repository';

/**
 * Fills pools: the sandbox seed's physical cards (documented numbers and activation codes, see
 * `sandboxPoolCard`) and bulk-created virtual cards. Assigning a pool card to a cardholder is a card operation
 * (CardService.assign).
 */
@Injectable()
export class PoolService {
  constructor(
    private readonly pool: PoolRepository,
    private readonly mint: CardMint,
    private readonly hasher: SecretHasher,
  ) {}

  async seedSandboxPool(executor: Executor, accountId: string, slot: number, product: Product): Promise<number> {
    let added = 0;
    for (let sequence = 0; sequence < SANDBOX_POOL_SIZE; sequence += 1) {
      const { card_number: pan, activation_code: code } = sandboxPoolCard(slot, sequence);
      const poolCardId = uuidV4();
      const inserted = await this.insert(executor, poolCardId, accountId, product, this.mint.withPan(pan, poolCardId), {
        formFactor: 'PHYSICAL',
        activationCodeHash: await this.hasher.hash(code),
        sandboxSequence: sequence,
        bulkOrderId: null,
      });
      if (inserted) added += 1;
    }
    return added;
  }

  async bulkCreateVirtual(executor: Executor, accountId: string, product: Product, currency: CardCurrency, quantity: number): Promise<BulkCreateView> {
    const bulkOrderId = uuidV4();
    const masked: string[] = [];
    while (masked.length < quantity) {
      const poolCardId = uuidV4();
      const stored = this.mint.mint(product.cardBin, poolCardId);
      const inserted = await this.insert(executor, poolCardId, accountId, product, stored, {
        formFactor: 'VIRTUAL',
        activationCodeHash: null,
        sandboxSequence: null,
        bulkOrderId,
      });
      if (inserted) masked.push(stored.maskedNumber);
    }
    return {
      bulk_order_id: bulkOrderId,
      card_product_id: product.productId,
      card_currency: currency,
      quantity,
      order_status: 'SUCCESS',
      card_numbers: masked,
    };
  }

  private insert(
    executor: Executor,
    poolCardId: string,
    accountId: string,
    product: Product,
    stored: StoredCardNumber,
    kind: Pick<NewPoolCard, 'formFactor' | 'activationCodeHash' | 'sandboxSequence' | 'bulkOrderId'>,
  ): Promise<boolean> {
    const { maskedNumber, panCiphertext, cvvCiphertext, panFingerprint, expiryMonth, expiryYear } = stored;
    return this.pool.insert(executor, {
      poolCardId,
      accountId,
      productId: product.productId,
      maskedNumber,
      panCiphertext,
      cvvCiphertext,
      panFingerprint,
      expiryMonth,
      expiryYear,
      ...kind,
    });
  }
}

@Module({ imports: [CryptoModule], providers: [PoolRepository, PoolService], exports: [PoolRepository, PoolService] })
export class PoolModule {}
