import { matchesEventFilter } from './event-filter';

describe('matchesEventFilter', () => {
  it('matches every event when the filter is empty', () => {
    expect(matchesEventFilter([], 'card.create.succeeded')).toBe(true);
  });

  it('matches exact names only exactly', () => {
    expect(matchesEventFilter(['card.create.succeeded'], 'card.create.succeeded')).toBe(true);
    expect(matchesEventFilter(['card.create.succeeded'], 'card.create.failed')).toBe(false);
    expect(matchesEventFilter(['card.create'], 'card.create.succeeded')).toBe(false);
  });

  it('matches a trailing wildcard as a prefix that ends at a dot', () => {
    const filters = ['acquiring.payment_intent.*'];
    expect(matchesEventFilter(filters, 'acquiring.payment_intent.succeeded')).toBe(true);
    expect(matchesEventFilter(filters, 'acquiring.payment_intent.requires_action')).toBe(true);
    expect(matchesEventFilter(filters, 'acquiring.payment_intent_x.succeeded')).toBe(false);
    expect(matchesEventFilter(filters, 'acquiring.payment_attempt.created')).toBe(false);
  });

  it('matches everything with a lone star', () => {
    expect(matchesEventFilter(['*'], 'payout.completed')).toBe(true);
  });

  it('matches when any one of several filters matches', () => {
    expect(matchesEventFilter(['payout.*', 'card.create.succeeded'], 'card.create.succeeded')).toBe(true);
    expect(matchesEventFilter(['payout.*', 'card.create.succeeded'], 'card.update.succeeded')).toBe(false);
  });
});
