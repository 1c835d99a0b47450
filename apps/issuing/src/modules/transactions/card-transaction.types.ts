import { AuthorizationChannel, CardTransactionStatus, CardTransactionType } from '@paygrid/contracts';

/** The life of an approved authorization's hold: HELD until it clears (posts) or is reversed. */
export type HoldState = 'HELD' | 'CLEARED' | 'REVERSED';

/** A card transaction (domain shape; money in minor units of the card's currency). */
export interface CardTransaction {
  transactionId: string;
  shortSequence: bigint;
  accountId: string;
  masterAccountId: string;
  cardId: string;
  cardholderId: string | null;
  maskedNumber: string;
  originalTransactionId: string | null;
  type: CardTransactionType;
  status: CardTransactionStatus;
  holdState: HoldState | null;
  billingCurrency: string;
  billingAmountMinor: bigint;
  transactionCurrency: string;
  transactionAmountMinor: bigint;
  /** Whose `available` bucket paid (the card, or the account for a one-time card) and is paid back. */
  fundingOwner: string;
  cardAvailableMinor: bigint;
  authorizationCode: string | null;
  channel: AuthorizationChannel | null;
  merchantName: string | null;
  merchantCategoryCode: string | null;
  merchantCity: string | null;
  merchantCountry: string | null;
  description: string | null;
  decisionResponseCode: string | null;
  transactionTime: Date;
  postedTime: Date | null;
}

export type NewCardTransaction = Omit<CardTransaction, 'shortSequence' | 'transactionTime' | 'postedTime'> & { postedTime?: Date | null };

export function cardTransactionFromRow(row: Record<string, unknown>): CardTransaction {
  return {
    transactionId: row.transaction_id as string,
    shortSequence: BigInt(row.short_sequence as string),
    accountId: row.account_id as string,
    masterAccountId: row.master_account_id as string,
    cardId: row.card_id as string,
    cardholderId: (row.cardholder_id as string | null) ?? null,
    maskedNumber: row.masked_number as string,
    originalTransactionId: (row.original_transaction_id as string | null) ?? null,
    type: row.transaction_type as CardTransactionType,
    status: row.transaction_status as CardTransactionStatus,
    holdState: (row.hold_state as HoldState | null) ?? null,
    billingCurrency: row.billing_currency as string,
    billingAmountMinor: BigInt(row.billing_amount_minor as string),
    transactionCurrency: row.transaction_currency as string,
    transactionAmountMinor: BigInt(row.transaction_amount_minor as string),
    fundingOwner: row.funding_owner as string,
    cardAvailableMinor: BigInt(row.card_available_minor as string),
    authorizationCode: (row.authorization_code as string | null) ?? null,
    channel: (row.channel as AuthorizationChannel | null) ?? null,
    merchantName: (row.merchant_name as string | null) ?? null,
    merchantCategoryCode: (row.merchant_category_code as string | null) ?? null,
    merchantCity: (row.merchant_city as string | null) ?? null,
    merchantCountry: (row.merchant_country as string | null) ?? null,
    description: (row.description as string | null) ?? null,
    decisionResponseCode: (row.decision_response_code as string | null) ?? null,
    transactionTime: row.transaction_time as Date,
    postedTime: (row.posted_time as Date | null) ?? null,
  };
}
