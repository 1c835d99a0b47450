import { ApiError } from '@paygrid/platform';
import { requireAmount } from './wire-amount';

describe('amounts read in a stored currency', () => {
  it.each([
    ['10.50', 'USD', 1050n],
    ['10.5', 'USD', 1050n],
    ['10', 'USD', 1000n],
    ['1000', 'JPY', 1000n],
    ['1.234', 'KWD', 1234n],
  ])('reads %s %s as %s minor units', (amount, currency, minor) => {
    expect(requireAmount('amount', amount, currency)).toBe(minor);
  });

  it.each([
    ['10.001', 'USD', 'amount: at most 2 decimal places for USD'],
    ['1.5', 'JPY', 'amount: no decimal places allowed for JPY'],
    ['0', 'USD', 'amount: must be greater than 0'],
    ['-1', 'USD', 'amount: must not have a sign'],
    ['1e3', 'USD', 'amount: must not use exponent notation'],
  ])('refuses %s %s with a message naming the field', (amount, currency, message) => {
    expect(() => requireAmount('amount', amount, currency)).toThrow(message);
  });

  it('refuses as an invalid_request_error that quotes no value', () => {
    let error: unknown;
    try {
      requireAmount('amount_to_capture', '4242424242424242.123', 'USD');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'amount_to_capture: at most 2 decimal places for USD',
    });
    expect((error as ApiError).message).not.toContain('4242');
  });
});
