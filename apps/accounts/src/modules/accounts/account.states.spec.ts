import { TransitionRefusedError } from '@paygrid/state-machine';
import { accountStatusMachine, verificationStatusMachine } from './account.states';

describe('account status machine', () => {
  it('approves a PROCESSING account into ACTIVE and rejects it into INACTIVE', () => {
    expect(accountStatusMachine.assertTransition('PROCESSING', 'APPROVE')).toBe('ACTIVE');
    expect(accountStatusMachine.assertTransition('PROCESSING', 'REJECT')).toBe('INACTIVE');
  });

  it('lets operators suspend and reinstate an account', () => {
    expect(accountStatusMachine.assertTransition('ACTIVE', 'DEACTIVATE')).toBe('INACTIVE');
    expect(accountStatusMachine.assertTransition('INACTIVE', 'REACTIVATE')).toBe('ACTIVE');
  });

  it('refuses to approve an account that is already ACTIVE, naming its status', () => {
    expect(() => accountStatusMachine.assertTransition('ACTIVE', 'APPROVE')).toThrow(
      new TransitionRefusedError({
        aggregate: 'account',
        event: 'APPROVE',
        verb: 'approve',
        currentStatus: 'ACTIVE',
        allowedFrom: ['PROCESSING'],
      }),
    );
    expect(() => accountStatusMachine.assertTransition('ACTIVE', 'APPROVE')).toThrow('cannot approve account: status is ACTIVE');
  });

  it('never leaves CLOSED', () => {
    expect(accountStatusMachine.isTerminal('CLOSED')).toBe(true);
    expect(accountStatusMachine.eventsFrom('CLOSED')).toEqual([]);
  });

  it('knows exactly the four statuses of the spec', () => {
    expect([...accountStatusMachine.states].sort()).toEqual(['ACTIVE', 'CLOSED', 'INACTIVE', 'PROCESSING']);
  });
});

describe('verification status machine', () => {
  it('decides a PENDING verification as APPROVED, REJECT or RETURN', () => {
    expect(verificationStatusMachine.assertTransition('PENDING', 'APPROVE')).toBe('APPROVED');
    expect(verificationStatusMachine.assertTransition('PENDING', 'REJECT')).toBe('REJECT');
    expect(verificationStatusMachine.assertTransition('PENDING', 'RETURN')).toBe('RETURN');
  });

  it('sends a returned or expired verification back to PENDING when documents are resubmitted', () => {
    expect(verificationStatusMachine.assertTransition('RETURN', 'RESUBMIT')).toBe('PENDING');
    expect(verificationStatusMachine.assertTransition('EXPIRED', 'RESUBMIT')).toBe('PENDING');
    expect(verificationStatusMachine.assertTransition('APPROVED', 'EXPIRE')).toBe('EXPIRED');
  });

  it('treats REJECT as final', () => {
    expect(verificationStatusMachine.isTerminal('REJECT')).toBe(true);
    expect(() => verificationStatusMachine.assertTransition('REJECT', 'RESUBMIT')).toThrow(
      'cannot resubmit account verification: status is REJECT',
    );
  });

  it('refuses to approve twice', () => {
    expect(verificationStatusMachine.canTransition('APPROVED', 'APPROVE')).toBe(false);
  });
});
