import { AuthorizeRequest } from './connector';
import { SANDBOX_CARDS, SandboxConnector } from './sandbox.connector';

describe('the sandbox connector', () => {
  const connector = new SandboxConnector();
  const request = (number: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
    attemptId: 'att_01J0000000000000000000000A',
    amountMinor: 1050n,
    currency: 'USD',
    card: { number, cvc: '123', expiryMonth: '12', expiryYear: '2099' },
    capture: true,
    enforceThreeDs: false,
    ...overrides,
  });

  it.each([SANDBOX_CARDS.approvedVisa, SANDBOX_CARDS.approvedMastercard, '4111111111111111'])('approves %s', async (number) => {
    const result = await connector.authorize(request(number));
    expect(result).toMatchObject({ kind: 'approved', captured: true, authenticationData: { avs_result: 'Y', cvv_result: 'M', three_ds: null } });
  });

  it.each([
    [SANDBOX_CARDS.declined, 'card_declined', false],
    [SANDBOX_CARDS.insufficientFunds, 'insufficient_funds', false],
    [SANDBOX_CARDS.expiredCard, 'expired_card', false],
    [SANDBOX_CARDS.incorrectCvc, 'incorrect_cvc', false],
    [SANDBOX_CARDS.fraud, 'fraudulent', true],
  ])('declines %s with %s (terminal: %s)', async (number, failureCode, terminal) => {
    expect(await connector.authorize(request(number))).toMatchObject({ kind: 'declined', failureCode, terminal });
  });

  it('asks for a 3-D Secure challenge, then approves or fails it as the shopper chose', async () => {
    const challenge = await connector.authorize(request(SANDBOX_CARDS.threeDsChallenge));
    expect(challenge).toMatchObject({ kind: 'challenge', authenticationData: { three_ds: { three_ds_authentication_status: 'C' } } });
    const approved = await connector.completeAuthentication({
      processorReference: challenge.processorReference,
      approved: true,
      capture: false,
      previous: challenge.authenticationData,
    });
    expect(approved).toMatchObject({ kind: 'approved', captured: false, authenticationData: { three_ds: { three_ds_authentication_status: 'Y', eci: '05' } } });
    const failed = await connector.completeAuthentication({
      processorReference: challenge.processorReference,
      approved: false,
      capture: true,
      previous: challenge.authenticationData,
    });
    expect(failed).toMatchObject({ kind: 'declined', failureCode: 'authentication_failed', terminal: false });
  });

  it('keeps the asynchronous card pending and approves it when checked', async () => {
    const pending = await connector.authorize(request(SANDBOX_CARDS.asynchronous, { capture: false }));
    expect(pending.kind).toBe('pending');
    const later = await connector.checkAuthorization({ processorReference: pending.processorReference, capture: false, previous: pending.authenticationData });
    expect(later).toMatchObject({ kind: 'approved', captured: false });
  });

  it('records a frictionless 3-D Secure result when 3-D Secure is enforced on an ordinary card', async () => {
    const result = await connector.authorize(request(SANDBOX_CARDS.approvedVisa, { enforceThreeDs: true }));
    expect(result.authenticationData.three_ds).toMatchObject({ three_ds_authentication_status: 'Y', three_ds_version: '2.2.0' });
  });

  it('answers the same for the same attempt, so a repeated call is harmless', async () => {
    const [first, second] = await Promise.all([connector.authorize(request(SANDBOX_CARDS.approvedVisa)), connector.authorize(request(SANDBOX_CARDS.approvedVisa))]);
    expect(first).toEqual(second);
  });

  it('marks a saved card charged without CVC as cvv_result P', async () => {
    const result = await connector.authorize(request(SANDBOX_CARDS.approvedVisa, { card: { number: SANDBOX_CARDS.approvedVisa, cvc: null, expiryMonth: '12', expiryYear: '2099' } }));
    expect(result.authenticationData.cvv_result).toBe('P');
  });

  it('clears with a 23-digit ARN and fails refunds whose minor units end in 13', async () => {
    expect((await connector.clear({ processorReference: 'sbx_x', attemptId: 'att_x' })).arn).toMatch(/^\d{23}$/);
    expect(await connector.refund({ refundId: 're_1', amountMinor: 113n })).toMatchObject({ outcome: 'failed', failureCode: 'refund_declined' });
    expect(await connector.refund({ refundId: 're_2', amountMinor: 100n })).toMatchObject({ outcome: 'succeeded' });
  });
});
