import { ApiError } from '@paygrid/platform';
import { AggregateNotFoundError } from '@paygrid/state-machine';
import { intentMachine } from '../modules/payments/payment-intent.states';
import { mapAcquiringError } from './acquiring-errors';

describe('the acquiring command error mapper', () => {
  it('answers a refused transition as payment_intent_unexpected_state naming the current status', () => {
    let refused: unknown;
    try {
      intentMachine.assertTransition('SUCCEEDED', 'CANCEL', 'pi_1');
    } catch (error) {
      refused = error;
    }
    const mapped = mapAcquiringError(refused);
    expect(mapped).toBeInstanceOf(ApiError);
    expect((mapped as ApiError).body).toEqual({
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: 'cannot cancel PaymentIntent: status is SUCCEEDED',
    });
  });

  it('reports a missing aggregate as the resource the API names', () => {
    const mapped = mapAcquiringError(new AggregateNotFoundError('Refund', 're_1')) as ApiError;
    expect(mapped.body).toMatchObject({ code: 'resource_not_found', message: 'refund not found' });
  });

  it('lets every other error through untouched', () => {
    const error = new Error('database down');
    expect(mapAcquiringError(error)).toBe(error);
  });
});
