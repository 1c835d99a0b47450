import { Injectable } from '@nestjs/common';
import { CustomerInput } from '@paygrid/contracts';
import { newId } from '@paygrid/ids';
import { Executor } from '@paygrid/platform';
import { AcquiringErrors } from '../../common/acquiring-errors';
import { CardVault } from '@paygrid/card-crypto';
import { PlainCard } from '../connectors/connector';
import { StoredCard } from '../payments/payment.types';
import { CustomerRepository } from './customer.repository';
import { Customer, SavedCard } from './customer.types';

/**
 * Customers and Card on File. An intent names an existing customer (customer_id wins) or brings an
 * inline one, which is created and whose id the intent returns. A card that a customer's payment used
 * successfully is saved, encrypted, and offered again on the hosted checkout page; a saved card is
 * charged without its CVC, which is never stored.
 */
@Injectable()
export class CustomerService {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly vault: CardVault,
  ) {}

  async resolveForIntent(
    executor: Executor,
    accountId: string,
    given: { customer_id?: string; customer?: CustomerInput },
  ): Promise<Customer | null> {
    if (given.customer_id) {
      const existing = await this.customers.find(executor, given.customer_id, accountId);
      if (!existing) throw AcquiringErrors.notFound('customer');
      return existing;
    }
    if (given.customer) return this.customers.insert(executor, newId('cus'), accountId, given.customer);
    return null;
  }

  find(executor: Executor, customerId: string | null, accountId: string): Promise<Customer | undefined> {
    if (customerId === null) return Promise.resolve(undefined);
    return this.customers.find(executor, customerId, accountId);
  }

  listCards(executor: Executor, customerId: string): Promise<SavedCard[]> {
    return this.customers.listCards(executor, customerId);
  }

  async saveCard(executor: Executor, customerId: string, accountId: string, card: PlainCard, stored: StoredCard): Promise<void> {
    const id = newId('card');
    await this.customers.saveCard(executor, {
      id,
      customerId,
      accountId,
      fingerprint: this.vault.fingerprint(card.number),
      panCiphertext: this.vault.encrypt(card.number, id),
      maskedNumber: stored.card_number,
      brand: stored.brand,
      bin: stored.bin,
      last4: stored.last4,
      expiryMonth: stored.expiry_month,
      expiryYear: stored.expiry_year,
      cardName: stored.card_name,
      billing: stored.billing,
    });
  }

  /** A saved card ready to charge: the PAN decrypted in memory, no CVC. */
  async openSavedCard(
    executor: Executor,
    savedCardId: string,
    customerId: string,
  ): Promise<{ plain: PlainCard; stored: StoredCard }> {
    const found = await this.customers.findCardSecret(executor, savedCardId, customerId);
    if (!found) throw AcquiringErrors.notFound('saved_card');
    const { card } = found;
    return {
      plain: {
        number: this.vault.decrypt(found.panCiphertext, card.id),
        cvc: null,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
      },
      stored: {
        card_name: card.cardName,
        card_number: card.maskedNumber,
        brand: card.brand,
        bin: card.bin,
        last4: card.last4,
        expiry_month: card.expiryMonth,
        expiry_year: card.expiryYear,
        billing: card.billing,
      },
    };
  }
}
