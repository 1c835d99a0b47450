import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyLedgersAfterSuite } from './ledger-verify';

/**
 * The e2e tier's closing ledger check must fail the run visibly: a non-zero exit code even when every
 * test passed, and a verdict npm test turns into a failed summary row. The CLI run is given, not spawned.
 */
describe('the ledger check after the e2e tier', () => {
  const verdictFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'ledger-verdict-')), 'ledger-verify.json');
  let exitCode: typeof process.exitCode;
  let written: string[];

  beforeEach(() => {
    exitCode = process.exitCode;
    written = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    process.exitCode = exitCode;
  });

  it('fails the run on a difference, printing every line and leaving a failed verdict', () => {
    const file = verdictFile();
    const verdict = verifyLedgersAfterSuite(
      () => ({ status: 1, stdout: 'DIFFERENCE acct/USD: the API shows available_balance 1.00, the postings sum to 2.00\n', stderr: 'error: ledger verify found 1 difference(s) across 3 account(s)\n' }),
      file,
    );
    const expected = {
      ok: false,
      output: 'DIFFERENCE acct/USD: the API shows available_balance 1.00, the postings sum to 2.00\nerror: ledger verify found 1 difference(s) across 3 account(s)',
    };
    expect(verdict).toEqual(expected);
    expect(process.exitCode).toBe(1);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(expected);
    expect(written.join('')).toContain('FAIL e2e ledger check');
  });

  it('fails the run when the check cannot run at all', () => {
    const verdict = verifyLedgersAfterSuite(() => {
      throw new Error('PAYGRID_E2E_KAFKA_PREFIX is not set');
    }, verdictFile());
    expect(verdict).toEqual({ ok: false, output: 'the check could not run: PAYGRID_E2E_KAFKA_PREFIX is not set' });
    expect(process.exitCode).toBe(1);
  });

  it('leaves the exit code alone when the ledgers agree', () => {
    process.exitCode = undefined;
    const file = verdictFile();
    expect(verifyLedgersAfterSuite(() => ({ status: 0, stdout: 'ledger verify: OK (1 account(s))\n', stderr: '' }), file)).toEqual({
      ok: true,
      output: 'ledger verify: OK (1 account(s))',
    });
    expect(process.exitCode).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8')).ok).toBe(true);
  });
});
