import { issuingAmountText, movementKeysOf, transactionTypeOf } from './balance-transaction.types';

describe('balance transaction types', () => {
  it('names a movement by its kind and direction', () => {
    expect(transactionTypeOf('issuing.transfer.reserved', -500n)).toBe('TRANSFER_OUT');
    expect(transactionTypeOf('issuing.transfer.settled', 500n)).toBe('TRANSFER_IN');
    expect(transactionTypeOf('issuing.transfer.released', 500n)).toBe('TRANSFER_REVERSAL');
    expect(transactionTypeOf('issuing.sandbox_funding', 100n)).toBe('DEPOSIT');
    expect(transactionTypeOf('card.recharge.reserved', -100n)).toBe('CARD_RECHARGE');
    // A kind not named yet reads as itself.
    expect(transactionTypeOf('card.authorization.held', -100n)).toBe('CARD_AUTHORIZATION_HELD');
  });

  it('turns a type filter into every movement it names', () => {
    expect(movementKeysOf('DEPOSIT').sort()).toEqual(['issuing.deposit.simulated:1', 'issuing.sandbox_funding:1']);
    expect(movementKeysOf('TRANSFER_IN')).toEqual(['issuing.transfer.settled:1']);
  });

  it('writes amounts with two decimals, signed', () => {
    expect(issuingAmountText(100000000n)).toBe('1000000.00');
    expect(issuingAmountText(-1234n)).toBe('-12.34');
    expect(issuingAmountText(5n)).toBe('0.05');
  });
});
