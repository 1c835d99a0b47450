import { ApiError } from '@paygrid/platform';
import { PayloadReader, requireWireAmount } from './payload-reader';

const readerOf = (payload: unknown) => PayloadReader.of({ type: 't', command_id: null, actor: null, payload, sent_at: '' });

describe('amounts in command payloads', () => {
  it.each([
    ['10.50', 'USD', 1050n],
    ['10.5', 'USD', 1050n],
    ['10', 'USD', 1000n],
    ['1000', 'JPY', 1000n],
    ['1.234', 'KWD', 1234n],
  ])('reads %s %s as %s minor units', (amount, currency, minor) => {
    expect(requireWireAmount('amount', amount, currency)).toBe(minor);
  });

  it.each([
    ['10.001', 'USD', 'amount: at most 2 decimal places for USD'],
    ['1.5', 'JPY', 'amount: no decimal places allowed for JPY'],
    ['0', 'USD', 'amount: must be greater than 0'],
    ['-1', 'USD', 'amount: must not have a sign'],
    ['1e3', 'USD', 'amount: must not use exponent notation'],
  ])('refuses %s %s with a message naming the field', (amount, currency, message) => {
    expect(() => requireWireAmount('amount', amount, currency)).toThrow(message);
  });

  it('collects every problem of a payload into one invalid_request_error, quoting no value', () => {
    const reader = readerOf({ amount: '4242424242424242.123', currency: 'XYZ', description: 7 });
    const currency = reader.currency('currency');
    reader.amount('amount', currency);
    reader.string('description', { required: true });
    reader.string('merchant_order_id', { required: true });
    let error: unknown;
    try {
      reader.done();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request_error',
      message: 'currency: is not a supported currency; description: must be a string; merchant_order_id: is required',
    });
    expect((error as ApiError).message).not.toContain('4242');
  });
});
