import {
  CreateIssuingReportPayload,
  CreateIssuingTransferPayload,
  ListBalanceTransactionsPayload,
  RetrieveIssuingBalancePayload,
  SimulateDepositPayload,
  validatePayload,
} from './index';

const MASTER = '3f0c1a8e-2b4d-4c6e-8f10-123456789abc';
const SUB = '3f0c1a8e-2b4d-4c6e-8f10-123456789abd';

describe('issuing funds payload rules', () => {
  it('takes a transfer between two accounts in an issuing currency with a two-decimal amount', () => {
    const transfer = { source_account_id: MASTER, destination_account_id: SUB, currency: 'SGD', amount: 12.34 };
    expect(validatePayload(CreateIssuingTransferPayload, transfer)).toMatchObject({ ok: true });
    expect(validatePayload(CreateIssuingTransferPayload, { ...transfer, remark: 'float' })).toMatchObject({ ok: true });
    for (const change of [{ amount: 0 }, { amount: 1.001 }, { amount: '5' }, { currency: 'EUR' }, { source_account_id: 'acct_1' }, { remark: 'a\u0000b' }]) {
      expect(validatePayload(CreateIssuingTransferPayload, { ...transfer, ...change })).toMatchObject({ ok: false });
    }
  });

  it('takes a report range that runs forwards and covers at most 366 days', () => {
    const report = { report_type: 'SETTLEMENT', start_time: '2026-01-01T00:00:00Z', end_time: '2026-02-01T00:00:00Z' };
    expect(validatePayload(CreateIssuingReportPayload, report)).toMatchObject({ ok: true });
    expect(validatePayload(CreateIssuingReportPayload, { ...report, report_type: 'BALANCE_TRANSACTION' })).toMatchObject({ ok: true });
    expect(validatePayload(CreateIssuingReportPayload, { ...report, end_time: report.start_time })).toEqual({
      ok: false,
      problems: ['end_time must be after start_time'],
    });
    expect(validatePayload(CreateIssuingReportPayload, { ...report, end_time: '2027-06-01T00:00:00Z' })).toEqual({
      ok: false,
      problems: ['a report covers at most 366 days'],
    });
    expect(validatePayload(CreateIssuingReportPayload, { ...report, report_type: 'CARDS' })).toMatchObject({ ok: false });
    expect(validatePayload(CreateIssuingReportPayload, { ...report, start_time: 'yesterday' })).toMatchObject({ ok: false });
  });

  it('takes a deposit with a SWIFT code of 8 to 11 letters or digits', () => {
    const deposit = { amount: 100, currency: 'USD', sender_swift_code: 'DBSSSGSGXXX' };
    expect(validatePayload(SimulateDepositPayload, deposit)).toMatchObject({ ok: true });
    for (const change of [{ sender_swift_code: 'DBS' }, { sender_swift_code: 'DBSS SGSG' }, { currency: 'JPY' }, { sender_country: 'Singapore' }]) {
      expect(validatePayload(SimulateDepositPayload, { ...deposit, ...change })).toMatchObject({ ok: false });
    }
  });

  it('leaves an unknown currency to the service (account_balance_error) but refuses a malformed filter', () => {
    expect(validatePayload(RetrieveIssuingBalancePayload, { currency: 'eur' })).toMatchObject({ ok: true });
    expect(validatePayload(RetrieveIssuingBalancePayload, { currency: '' })).toMatchObject({ ok: false });
    expect(validatePayload(ListBalanceTransactionsPayload, { transaction_type: 'DEPOSIT', transaction_status: 'COMPLETED' })).toMatchObject({ ok: true });
    for (const filter of [{ transaction_type: 'REFUND' }, { transaction_id: 'T123' }, { start_time: '2026-13-01' }, { page_size: 5 }]) {
      expect(validatePayload(ListBalanceTransactionsPayload, filter)).toMatchObject({ ok: false });
    }
  });
});
