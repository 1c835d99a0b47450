import { Injectable, Module } from '@nestjs/common';
import { maskCardNumber } from '@paygrid/contracts';
import { expiryFrom, newCvv, newPan } from '../cards/card-number';
import { CardSecretVault, IssuingTransport, SecretHasher } from './card-secrets';

/**
 * Turns card numbers into what is stored: the masked number, the number and CVV encrypted under the owning
 * row's id, and the fingerprint that finds the number again. The clear number exists only in memory here.
 */
export interface StoredCardNumber {
  maskedNumber: string;
  panCiphertext: string;
  cvvCiphertext: string;
  panFingerprint: string;
  expiryMonth: number;
  expiryYear: number;
}

@Injectable()
export class CardMint {
  constructor(private readonly vault: CardSecretVault) {}

  /** A new number on the BIN for the row `rowId`. */
  mint(bin: string, rowId: string, now: Date = new Date()): StoredCardNumber & { pan: string } {
    return this.withPan(newPan(bin), rowId, now);
  }

  /** A known number (a sandbox pool card) for the row `rowId`. */
  withPan(pan: string, rowId: string, now: Date = new Date()): StoredCardNumber & { pan: string } {
    return { ...this.store(pan, newCvv(), rowId, expiryFrom(now)), pan };
  }

  /** The same number, CVV and expiry moved from one row to another (a pool card becoming a card). */
  rehome(stored: StoredCardNumber, fromRowId: string, toRowId: string): StoredCardNumber {
    return {
      ...stored,
      panCiphertext: this.vault.encrypt(this.vault.decrypt(stored.panCiphertext, fromRowId), toRowId),
      cvvCiphertext: this.vault.encrypt(this.vault.decrypt(stored.cvvCiphertext, fromRowId), toRowId),
    };
  }

  fingerprint(pan: string): string {
    return this.vault.fingerprint(pan);
  }

  reveal(stored: Pick<StoredCardNumber, 'panCiphertext' | 'cvvCiphertext'>, rowId: string): { pan: string; cvv: string } {
    return { pan: this.vault.decrypt(stored.panCiphertext, rowId), cvv: this.vault.decrypt(stored.cvvCiphertext, rowId) };
  }

  private store(pan: string, cvv: string, rowId: string, expiry: { month: number; year: number }): StoredCardNumber {
    return {
      maskedNumber: maskCardNumber(pan),
      panCiphertext: this.vault.encrypt(pan, rowId),
      cvvCiphertext: this.vault.encrypt(cvv, rowId),
      panFingerprint: this.vault.fingerprint(pan),
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
    };
  }
}

@Module({
  providers: [CardSecretVault, IssuingTransport, SecretHasher, CardMint],
  exports: [CardSecretVault, IssuingTransport, SecretHasher, CardMint],
})
export class CryptoModule {}
