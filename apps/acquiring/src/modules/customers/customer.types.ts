import { Address, Billing } from '@paygrid/contracts';

/** Domain types of customers and their saved cards (Card on File): camelCase, Dates, masked cards only. */
export interface Customer {
  id: string;
  accountId: string;
  externalCustomerId: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phoneNumber: string | null;
  address: Address;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export interface SavedCard {
  id: string;
  customerId: string;
  accountId: string;
  maskedNumber: string;
  brand: string;
  bin: string;
  last4: string;
  expiryMonth: string;
  expiryYear: string;
  cardName: string;
  billing: Billing;
  createdAt: Date;
}

export interface NewSavedCard extends Omit<SavedCard, 'createdAt'> {
  fingerprint: string;
  panCiphertext: string;
}
