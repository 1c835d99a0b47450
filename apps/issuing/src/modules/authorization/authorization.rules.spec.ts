import { Card } from '../cards/card.types';
import { AuthorizationAttempt, channelOf, declineByCard, declineBySpend, isValidMcc, needsSpend, spendWindows } from './authorization.rules';

const NOW = new Date('2026-11-18T15:30:00Z'); // a Wednesday
const card = (overrides: Partial<Card> = {}): Card =>
  ({
    status: 'ACTIVE',
    currency: 'USD',
    expiryMonth: 12,
    expiryYear: 2029,
    expiryAt: null,
    riskControls: {},
    spendingControls: [],
    cardLimitMinor: 0n,
    ...overrides,
  }) as Card;
const attempt = (overrides: Partial<AuthorizationAttempt> = {}): AuthorizationAttempt => ({
  amountMinor: 1000n,
  currency: 'USD',
  mcc: '5411',
  channel: 'ONLINE',
  ...overrides,
});
const spend = (allTime: bigint, day = 0n) => () => ({ day, week: day, month: day, year: day, allTime });

describe('authorization rules', () => {
  it('takes only 4-digit MCCs and the known channels (ONLINE by default)', () => {
    expect(['5411', '0000'].map(isValidMcc)).toEqual([true, true]);
    expect(['541', '54111', '54a1', ' 541', '٥٤١١'].map(isValidMcc)).toEqual([false, false, false, false, false]);
    expect(channelOf(undefined)).toBe('ONLINE');
    expect(channelOf('ATM')).toBe('ATM');
    expect(channelOf('atm')).toBeUndefined();
  });

  it('declines by status, expiry, currency and closed channels', () => {
    expect(declineByCard(card(), attempt(), NOW)).toBeNull();
    expect(declineByCard(card({ status: 'FROZEN' }), attempt(), NOW)).toBe('card is FROZEN');
    expect(declineByCard(card({ expiryMonth: 10, expiryYear: 2026 }), attempt(), NOW)).toBe('card expired');
    expect(declineByCard(card({ expiryAt: new Date('2026-11-18T15:00:00Z') }), attempt(), NOW)).toBe('card expired');
    expect(declineByCard(card(), attempt({ currency: 'SGD' }), NOW)).toContain('differs');
    expect(declineByCard(card({ riskControls: { allow_online: false } }), attempt(), NOW)).toContain('online');
    expect(declineByCard(card({ riskControls: { allow_online: false } }), attempt({ channel: 'CHIP' }), NOW)).toBeNull();
    expect(declineByCard(card({ riskControls: { allow_contactless: false } }), attempt({ channel: 'CONTACTLESS' }), NOW)).toContain('contactless');
    expect(declineByCard(card({ riskControls: { allow_atm: false } }), attempt({ channel: 'ATM' }), NOW)).toContain('ATM');
  });

  it('allows only the MCCs the controls name, and caps each transaction', () => {
    const controlled = card({ spendingControls: [{ interval: 'PER_TRANSACTION', categories: ['5411'], amount: 10 }] });
    expect(declineByCard(controlled, attempt({ mcc: '5999' }), NOW)).toContain('5999');
    expect(declineByCard(controlled, attempt({ amountMinor: 1000n }), NOW)).toBeNull();
    expect(declineByCard(controlled, attempt({ amountMinor: 1001n }), NOW)).toContain('per-transaction');
  });

  it('counts each interval control and the card limit against what was spent', () => {
    const daily = card({ spendingControls: [{ interval: 'DAILY', amount: 50 }] });
    expect(needsSpend(card(), '5411')).toBe(false);
    expect(needsSpend(daily, '5411')).toBe(true);
    expect(declineBySpend(daily, attempt(), spend(0n, 4000n))).toBeNull();
    expect(declineBySpend(daily, attempt({ amountMinor: 1001n }), spend(0n, 4000n))).toContain('DAILY');
    const limited = card({ cardLimitMinor: 5000n });
    expect(declineBySpend(limited, attempt(), spend(4000n))).toBeNull();
    expect(declineBySpend(limited, attempt({ amountMinor: 1001n }), spend(4000n))).toBe('amount exceeds the card limit');
  });

  it('opens the windows in UTC: the day, the week from Monday, the month and the year', () => {
    expect(spendWindows(NOW)).toEqual({
      day: new Date('2026-11-18T00:00:00Z'),
      week: new Date('2026-11-16T00:00:00Z'),
      month: new Date('2026-11-01T00:00:00Z'),
      year: new Date('2026-01-01T00:00:00Z'),
    });
    expect(spendWindows(new Date('2026-11-22T23:59:00Z')).week).toEqual(new Date('2026-11-16T00:00:00Z'));
  });
});
