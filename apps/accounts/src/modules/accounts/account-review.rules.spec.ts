import { decideSandboxReview } from './account-review.rules';

const subject = { nickname: 'Shop One', accountName: 'Shop One Pte Ltd', businessDetails: { legal_entity_name: 'Shop One' } };

describe('decideSandboxReview', () => {
  it('approves an ordinary account', () => {
    expect(decideSandboxReview(subject)).toEqual({ outcome: 'APPROVE' });
  });

  it('rejects an account whose nickname contains REJECT, saying why', () => {
    expect(decideSandboxReview({ ...subject, nickname: 'please REJECT me' })).toEqual({
      outcome: 'REJECT',
      reason: 'Sandbox review rejected the account: its nickname contains "REJECT"',
    });
  });

  it('rejects an account whose legal entity name contains REJECT', () => {
    const decision = decideSandboxReview({ ...subject, businessDetails: { legal_entity_name: 'REJECT Holdings' } });
    expect(decision).toMatchObject({ outcome: 'REJECT', reason: expect.stringContaining('legal entity name') });
  });

  it('rejects on the account name too (an individual’s full name)', () => {
    expect(decideSandboxReview({ nickname: null, accountName: 'Jane REJECT', businessDetails: null }).outcome).toBe('REJECT');
  });

  it('only reacts to the word in capitals', () => {
    expect(decideSandboxReview({ ...subject, nickname: 'Rejected Goods' }).outcome).toBe('APPROVE');
  });
});
