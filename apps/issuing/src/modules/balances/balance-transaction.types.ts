import { BalanceTransactionType } from '@paygrid/contracts';
import { formatAmount } from '@paygrid/money';

/**
 * How a ledger posting on an account's `available` bucket reads as a balance transaction (docs/issuing.md,
 * "Balance transactions"): its entry's kind and the posting's direction name the type. A kind another part of
 * issuing adds later shows as its own name in capitals until it is named here.
 */
const TYPES: Record<string, BalanceTransactionType> = {
  'issuing.sandbox_funding:1': 'DEPOSIT',
  'issuing.deposit.simulated:1': 'DEPOSIT',
  'issuing.transfer.reserved:-1': 'TRANSFER_OUT',
  'issuing.transfer.settled:1': 'TRANSFER_IN',
  'issuing.transfer.released:1': 'TRANSFER_REVERSAL',
  'card.recharge.reserved:-1': 'CARD_RECHARGE',
  'card.recharge.released:1': 'CARD_RECHARGE_REVERSAL',
  'card.withdraw.settled:1': 'CARD_WITHDRAW',
  'card.closed.swept:1': 'CARD_BALANCE_RETURN',
  // The same movements seen from the card's side (settlement reports list both).
  'card.recharge.settled:1': 'CARD_RECHARGE',
  'card.withdraw.reserved:-1': 'CARD_WITHDRAW',
  'card.closed.swept:-1': 'CARD_BALANCE_RETURN',
};

/** `<kind>:<sign>`, the key the repository filters on. */
export function movementKey(kind: string, amountMinor: bigint): string {
  return `${kind}:${amountMinor < 0n ? -1 : 1}`;
}

export function transactionTypeOf(kind: string, amountMinor: bigint): string {
  return TYPES[movementKey(kind, amountMinor)] ?? kind.toUpperCase().replace(/\./g, '_');
}

/** The movement keys a type filter matches. */
export function movementKeysOf(type: BalanceTransactionType): string[] {
  return Object.entries(TYPES)
    .filter(([, named]) => named === type)
    .map(([key]) => key);
}

/**
 * Issuing amounts have two decimals in every issuing currency (decisions §5; XUSD is not an ISO 4217 code, so
 * the currency's own exponent cannot be looked up): formatted as USD's.
 */
export function issuingAmountText(amountMinor: bigint): string {
  return formatAmount(amountMinor, 'USD');
}

/**
 * A stable uuid named by text (an account and currency, a posting's entry and owner), computed in SQL so lists
 * can filter on it: the md5 of the text with the version and variant nibbles of a v4 uuid.
 */
export function namedUuidSql(textExpression: string): string {
  return `overlay(overlay(md5(${textExpression}) placing '4' from 13) placing '8' from 17)::uuid`;
}
