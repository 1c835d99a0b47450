import { anAccount } from '../../test/fixtures';
import { canActFor, canView, isListed, listScopeOf } from './account.visibility';

const master = anAccount({ accountId: '10000000-0000-4000-8000-000000000000' });
const sub = anAccount({ accountId: '10000000-0000-4000-8000-000000000001', parentAccountId: master.accountId });
const sibling = anAccount({ accountId: '10000000-0000-4000-8000-000000000002', parentAccountId: master.accountId });
const otherMaster = anAccount({ accountId: '20000000-0000-4000-8000-000000000000' });
const othersSub = anAccount({ accountId: '20000000-0000-4000-8000-000000000001', parentAccountId: otherMaster.accountId });

describe('canView', () => {
  it('lets every account see itself', () => {
    expect(canView(master, master)).toBe(true);
    expect(canView(sub, sub)).toBe(true);
  });

  it('lets a master see its own sub-accounts', () => {
    expect(canView(master, sub)).toBe(true);
    expect(canView(master, sibling)).toBe(true);
  });

  it('never lets a sub-account see its master or a sibling', () => {
    expect(canView(sub, master)).toBe(false);
    expect(canView(sub, sibling)).toBe(false);
  });

  it('never lets a master see another master or that master’s sub-accounts', () => {
    expect(canView(master, otherMaster)).toBe(false);
    expect(canView(master, othersSub)).toBe(false);
  });
});

describe('canActFor', () => {
  it('lets a master act for its own active or processing sub-account', () => {
    expect(canActFor(master, sub)).toBe(true);
    expect(canActFor(master, { ...sub, status: 'PROCESSING' })).toBe(true);
  });

  it('refuses a deactivated or closed sub-account', () => {
    expect(canActFor(master, { ...sub, status: 'INACTIVE' })).toBe(false);
    expect(canActFor(master, { ...sub, status: 'CLOSED' })).toBe(false);
  });

  it('never lets a sub-account act for its master, a sibling or itself', () => {
    expect(canActFor(sub, master)).toBe(false);
    expect(canActFor(sub, sibling)).toBe(false);
    expect(canActFor(sub, sub)).toBe(false);
  });

  it('refuses a master acting for itself or for another master’s sub-account', () => {
    expect(canActFor(master, master)).toBe(false);
    expect(canActFor(master, othersSub)).toBe(false);
  });
});

describe('listScopeOf', () => {
  it('lists the whole family for a master and only itself for a sub-account', () => {
    expect(listScopeOf(master)).toEqual({ kind: 'family', masterId: master.accountId });
    expect(listScopeOf(sub)).toEqual({ kind: 'self', accountId: sub.accountId });
  });

  it('hides closed accounts', () => {
    expect(isListed({ status: 'CLOSED' })).toBe(false);
    expect(isListed({ status: 'INACTIVE' })).toBe(true);
  });
});
