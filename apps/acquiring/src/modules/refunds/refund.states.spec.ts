import { refundMachine } from './refund.states';

describe('the Refund state table', () => {
  it('goes INITIATED → PROCESSING → SUCCEEDED or FAILED', () => {
    expect(refundMachine.assertTransition('INITIATED', 'SUBMIT')).toBe('PROCESSING');
    expect(refundMachine.assertTransition('PROCESSING', 'SUCCEED')).toBe('SUCCEEDED');
    expect(refundMachine.assertTransition('PROCESSING', 'FAIL')).toBe('FAILED');
  });

  it('refuses to complete a refund that was never submitted, naming its status', () => {
    expect(() => refundMachine.assertTransition('INITIATED', 'SUCCEED')).toThrow('cannot complete Refund: status is INITIATED');
    expect(refundMachine.isTerminal('SUCCEEDED') && refundMachine.isTerminal('FAILED')).toBe(true);
  });
});
