import { verifyLedger } from '@paygrid/ledger';
import { Actor, IssuingFundsCommand, IssuingTransferView, SANDBOX_SEED_DEFAULTS, SimulatedDepositView } from '@paygrid/contracts';
import { uuidV4 } from '@paygrid/ids';
import { waitFor } from '@paygrid/testing';
import { AccountProvisioning } from './modules/catalogue/account-provisioning.service';
import { IssuingApp, refusalOf, resultOf, SANDBOX_ACTORS, startIssuingApp } from './test/issuing-app.harness';

/**
 * Issuing balances, deposits, transfers and reports against the real Postgres, Redis and Kafka (issue 11, part A):
 * the money on both sides exact to the cent, refusals that store nothing, each status announced once through the
 * outbox, transfers racing for one balance, and reports produced by the durable job. Waits poll with a deadline.
 */
const master = SANDBOX_ACTORS.master;
const sub1 = SANDBOX_ACTORS.sub1;
const page = { page_size: 10, page_number: 1 };

describe('issuing funds', () => {
  let issuing: IssuingApp;
  const send: IssuingApp['send'] = (definition, payload, actor) => issuing.send(definition, payload, actor);

  beforeAll(async () => {
    issuing = await startIssuingApp({ ISSUING_TRANSFER_DELAY_MS: '100' });
  }, 120_000);

  afterAll(async () => {
    await issuing?.close();
  });

  async function available(actor: Actor, currency = 'USD'): Promise<string> {
    return resultOf(await send(IssuingFundsCommand.retrieveBalance, { currency }, actor)).available_balance;
  }

  async function finished(transferId: string, actor: Actor = master): Promise<IssuingTransferView> {
    return waitFor(
      async () => {
        const transfer = resultOf(await send(IssuingFundsCommand.retrieveTransfer, { transfer_id: transferId }, actor));
        return transfer.transfer_status === 'PENDING' ? undefined : transfer;
      },
      { what: `transfer ${transferId} to finish`, timeoutMs: 20_000 },
    );
  }

  async function outboxNames(sourceId: string): Promise<string[]> {
    const rows: { name: string; status: string }[] = await issuing.dataSource.query(
      `SELECT payload::jsonb->>'event_name' AS name, payload::jsonb->'data'->>'transfer_status' AS status FROM outbox WHERE message_key = $1 ORDER BY id`,
      [sourceId],
    );
    return rows.map((row) => (row.status ? `${row.name}:${row.status}` : row.name));
  }

  /** A new sub-account of the sandbox master, known to issuing, with no money. */
  async function newSubAccount(): Promise<Actor> {
    const accountId = uuidV4();
    await issuing.app.get(AccountProvisioning).provision(issuing.dataSource, { accountId, masterAccountId: master.master_account_id }, 'int-test');
    return { ...sub1, account_id: accountId, caller_account_id: accountId };
  }

  it('lists and retrieves the seeded balances as strings, and refuses a currency the account does not hold', async () => {
    const balances = resultOf(await send(IssuingFundsCommand.listBalances, page, master));
    expect(balances).toMatchObject({ total_items: 2, total_pages: 1 });
    expect(balances.data.map((balance) => balance.currency)).toEqual(['SGD', 'USD']);
    expect(balances.data[0]).toMatchObject({ available_balance: '1000000.00', margin_balance: '0.00', frozen_balance: '0.00', balance_status: 'ACTIVE' });
    const usd = resultOf(await send(IssuingFundsCommand.retrieveBalance, { currency: 'USD' }, master));
    expect(usd).toEqual(balances.data[1]);
    for (const currency of ['EUR', 'usd', 'XUSD']) {
      expect(refusalOf(await send(IssuingFundsCommand.retrieveBalance, { currency }, master))).toEqual({
        status: 400,
        body: { type: 'account_error', code: 'account_balance_error', message: `No issuing balance is available in ${currency} for this account` },
      });
    }
  });

  it('credits a simulated deposit once and lists it among the balance transactions with every filter', async () => {
    const account = await newSubAccount();
    const body = { amount: 250.75, currency: 'SGD', sender_swift_code: 'DBSSSGSG', sender_name: 'Ada', sender_country: 'SG' };
    // The same command delivered twice (a retried request) deposits once and answers the same.
    const commandId = `cmd_${uuidV4()}`;
    const deposit = resultOf(await issuing.harness.send<SimulatedDepositView>(IssuingFundsCommand.simulateDeposit.type, body, { actor: account, commandId }));
    const again = resultOf(await issuing.harness.send<SimulatedDepositView>(IssuingFundsCommand.simulateDeposit.type, body, { actor: account, commandId }));
    expect(again).toEqual(deposit);
    expect(deposit).toMatchObject({ amount: '250.75', currency: 'SGD', deposit_status: 'COMPLETED', sender: { sender_swift_code: 'DBSSSGSG' } });
    expect(await available(account, 'SGD')).toBe('250.75');

    const listed = resultOf(await send(IssuingFundsCommand.listBalanceTransactions, page, account));
    expect(listed.total_items).toBe(1);
    const [transaction] = listed.data;
    expect(transaction).toMatchObject({
      account_id: account.account_id,
      transaction_type: 'DEPOSIT',
      transaction_status: 'COMPLETED',
      currency: 'SGD',
      amount: 250.75,
      ending_balance: 250.75,
      description: `Deposit ${deposit.deposit_id}`,
    });
    const filtered = async (filter: Record<string, unknown>) =>
      resultOf(await send(IssuingFundsCommand.listBalanceTransactions, { ...page, ...filter }, account)).total_items;
    expect(await filtered({ transaction_id: transaction.transaction_id })).toBe(1);
    expect(await filtered({ transaction_id: uuidV4() })).toBe(0);
    expect(await filtered({ transaction_type: 'DEPOSIT', currency: 'SGD', transaction_status: 'COMPLETED' })).toBe(1);
    expect(await filtered({ transaction_type: 'TRANSFER_IN' })).toBe(0);
    expect(await filtered({ currency: 'USD' })).toBe(0);
    expect(await filtered({ transaction_status: 'PENDING' })).toBe(0);
    expect(await filtered({ start_time: transaction.create_time })).toBe(1);
    expect(await filtered({ end_time: transaction.create_time })).toBe(0);
    expect(await filtered({ page_number: 2 })).toBe(1);
    expect(refusalOf(await send(IssuingFundsCommand.simulateDeposit, { ...body, amount: 1.005 }, account)).status).toBe(400);
  });

  it('moves a transfer master → sub-account: reserved on the source, then completed in one entry, each status announced once', async () => {
    const account = await newSubAccount();
    const created = resultOf(
      await send(IssuingFundsCommand.createTransfer, { source_account_id: master.account_id, destination_account_id: account.account_id, currency: 'USD', amount: 123.45, remark: 'float' }, master),
    );
    expect(created.short_transaction_id).toMatch(/^T\d{9}$/);
    const done = await finished(created.transfer_id);
    expect(done).toMatchObject({ transfer_status: 'COMPLETED', amount: '123.45', fee_amount: '0.00', currency: 'USD', remark: 'float', creator_id: master.account_id });
    expect(await available(account)).toBe('123.45');
    // The sub-account sees it too, from its side.
    expect(resultOf(await send(IssuingFundsCommand.retrieveTransfer, { transfer_id: created.transfer_id }, account)).transfer_status).toBe('COMPLETED');
    const incoming = resultOf(await send(IssuingFundsCommand.listBalanceTransactions, { ...page, transaction_type: 'TRANSFER_IN' }, account));
    expect(incoming.data.map((row) => [row.amount, row.ending_balance])).toEqual([[123.45, 123.45]]);
    const entryLines = (reference: string) =>
      issuing.dataSource.query(
        `SELECT a.owner_id, a.bucket, p.amount::text FROM ledger_entries e JOIN ledger_postings p ON p.entry_id = e.id JOIN ledger_accounts a ON a.id = p.ledger_account_id
          WHERE e.reference = $1 ORDER BY p.line`,
        [reference],
      );
    expect(await entryLines(`issuing_transfer:${created.transfer_id}:reserve`)).toEqual([
      { owner_id: master.account_id, bucket: 'available', amount: '-12345' },
      { owner_id: master.account_id, bucket: 'transfer_in_flight', amount: '12345' },
    ]);
    expect(await entryLines(`issuing_transfer:${created.transfer_id}:settle`)).toEqual([
      { owner_id: master.account_id, bucket: 'transfer_in_flight', amount: '-12345' },
      { owner_id: account.account_id, bucket: 'available', amount: '12345' },
    ]);
    await waitFor(async () => ((await outboxNames(created.transfer_id)).length === 2 ? true : undefined), { what: 'both transfer events' });
    expect(await outboxNames(created.transfer_id)).toEqual(['issuing.transfer.status_changed:PENDING', 'issuing.transfer.status_changed:COMPLETED']);
    const listed = resultOf(await send(IssuingFundsCommand.listTransfers, { ...page, transfer_status: 'COMPLETED' }, account));
    expect(listed.data.map((transfer) => transfer.transfer_id)).toEqual([created.transfer_id]);
  });

  it('fails a transfer whose cents are 13 and puts the money back on the source', async () => {
    const account = await newSubAccount();
    const funding = resultOf(
      await send(IssuingFundsCommand.createTransfer, { source_account_id: master.account_id, destination_account_id: account.account_id, currency: 'USD', amount: 10 }, master),
    );
    await finished(funding.transfer_id);
    const failing = resultOf(
      await send(IssuingFundsCommand.createTransfer, { source_account_id: account.account_id, destination_account_id: master.account_id, currency: 'USD', amount: 5.13 }, account),
    );
    expect(await finished(failing.transfer_id, account)).toMatchObject({ transfer_status: 'FAILED', failure_reason: 'sandbox: amount cents 13' });
    expect(resultOf(await send(IssuingFundsCommand.retrieveBalance, { currency: 'USD' }, account))).toMatchObject({ available_balance: '10.00', frozen_balance: '0.00' });
    const types = resultOf(await send(IssuingFundsCommand.listBalanceTransactions, page, account)).data.map((row) => [row.transaction_type, row.amount]);
    expect(types).toEqual([
      ['TRANSFER_REVERSAL', 5.13],
      ['TRANSFER_OUT', -5.13],
      ['TRANSFER_IN', 10],
    ]);
  });

  it('refuses transfers that are not master ↔ own sub-account, or that the source cannot cover, storing nothing', async () => {
    const account = await newSubAccount();
    const other = await newSubAccount();
    const [{ count: before }] = await issuing.dataSource.query(`SELECT count(*)::int AS count FROM issuing_transfers`);
    const transfer = (source: string, destination: string, amount = 1) => ({ source_account_id: source, destination_account_id: destination, currency: 'USD', amount });
    const refusals = [
      [transfer(account.account_id, master.account_id), account, 'account_error', 'insufficient_balance'],
      [transfer(master.account_id, account.account_id, 2_000_000), master, 'account_error', 'insufficient_balance'],
      [transfer(master.account_id, master.account_id), master, 'invalid_request_error', 'invalid_transfer_accounts'],
      [transfer(account.account_id, other.account_id), master, 'invalid_request_error', 'invalid_transfer_accounts'],
      [transfer(master.account_id, uuidV4()), master, 'invalid_request_error', 'account_not_found'],
      [transfer(master.account_id, account.account_id), other, 'invalid_request_error', 'transfer_not_allowed'],
    ] as const;
    for (const [payload, actor, type, code] of refusals) {
      expect(refusalOf(await send(IssuingFundsCommand.createTransfer, payload, actor))).toMatchObject({ status: 400, body: { type, code } });
    }
    const [{ count: after }] = await issuing.dataSource.query(`SELECT count(*)::int AS count FROM issuing_transfers`);
    expect(after).toBe(before);
    expect(refusalOf(await send(IssuingFundsCommand.retrieveTransfer, { transfer_id: uuidV4() }, master)).body).toMatchObject({ code: 'resource_not_found' });
  });

  it('lets exactly 25 of 50 concurrent transfers through against a balance covering 25, never below zero', async () => {
    const account = await newSubAccount();
    const funding = resultOf(
      await send(IssuingFundsCommand.createTransfer, { source_account_id: master.account_id, destination_account_id: account.account_id, currency: 'USD', amount: 25 }, master),
    );
    await finished(funding.transfer_id);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () =>
        send(IssuingFundsCommand.createTransfer, { source_account_id: account.account_id, destination_account_id: master.account_id, currency: 'USD', amount: 1 }, account),
      ),
    );
    const accepted = replies.filter((reply) => reply.ok).map((reply) => resultOf(reply));
    expect(accepted).toHaveLength(25);
    expect(replies.filter((reply) => !reply.ok).map((reply) => refusalOf(reply).body.code)).toEqual(Array(25).fill('insufficient_balance'));
    for (const transfer of accepted) expect((await finished(transfer.transfer_id, account)).transfer_status).toBe('COMPLETED');
    expect(resultOf(await send(IssuingFundsCommand.retrieveBalance, { currency: 'USD' }, account))).toMatchObject({ available_balance: '0.00', frozen_balance: '0.00' });
    expect(await verifyLedger(issuing.dataSource)).toEqual([]);
  }, 60_000);

  it('produces CSV reports by the durable job, announces each once, and shows them only to their account', async () => {
    const account = await newSubAccount();
    const from = new Date(Date.now() - 60_000).toISOString();
    resultOf(await send(IssuingFundsCommand.simulateDeposit, { amount: 40, currency: 'USD', sender_swift_code: 'DBSSSGSG' }, account));
    const out = resultOf(
      await send(IssuingFundsCommand.createTransfer, { source_account_id: account.account_id, destination_account_id: master.account_id, currency: 'USD', amount: 15.5 }, account),
    );
    await finished(out.transfer_id, account);
    const to = new Date(Date.now() + 60_000).toISOString();

    const download = async (reportId: string) =>
      waitFor(
        async () => {
          const reply = await send(IssuingFundsCommand.downloadReport, { report_id: reportId }, account);
          return reply.ok ? reply.result : undefined;
        },
        { what: `report ${reportId}`, timeoutMs: 20_000 },
      );
    const transactions = resultOf(await send(IssuingFundsCommand.createReport, { report_type: 'BALANCE_TRANSACTION', start_time: from, end_time: to }, account));
    const file = await download(transactions.report_id);
    expect(file.content_type).toBe('text/csv');
    const lines = file.content.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"create_time","transaction_id","short_transaction_id","transaction_type","transaction_status","currency","amount","ending_balance","description"');
    expect(lines.slice(1).map((line) => line.split(',').slice(3, 8))).toEqual([
      ['"DEPOSIT"', '"COMPLETED"', '"USD"', '40.00', '40.00'],
      ['"TRANSFER_OUT"', '"COMPLETED"', '"USD"', '-15.50', '24.50'],
    ]);

    const settlement = resultOf(await send(IssuingFundsCommand.createReport, { report_type: 'SETTLEMENT', start_time: from, end_time: to }, account));
    const settled = await download(settlement.report_id);
    expect(settled.content.trimEnd().split('\r\n')).toHaveLength(3);
    expect(await outboxNames(settlement.report_id)).toEqual(['issuing.report.succeeded']);
    const [event] = await issuing.dataSource.query(`SELECT payload::jsonb->'data' AS data FROM outbox WHERE message_key = $1`, [settlement.report_id]);
    expect(event.data).toMatchObject({ report_id: settlement.report_id, report_type: 'SETTLEMENT', report_status: 'SUCCEEDED', row_count: 2 });

    expect(refusalOf(await send(IssuingFundsCommand.downloadReport, { report_id: settlement.report_id }, master)).body).toMatchObject({ code: 'resource_not_found' });
    // A report its job has not produced yet (a row no job was scheduled for): not ready, not an empty file.
    const waiting = uuidV4();
    await issuing.dataSource.query(
      `INSERT INTO issuing_reports (report_id, account_id, master_account_id, report_type, report_status, range_start, range_end)
       VALUES ($1, $2, $3, 'SETTLEMENT', 'PENDING', $4, $5)`,
      [waiting, account.account_id, master.account_id, from, to],
    );
    expect(refusalOf(await send(IssuingFundsCommand.downloadReport, { report_id: waiting }, account))).toMatchObject({
      status: 400,
      body: { type: 'invalid_request_error', code: 'report_not_ready' },
    });
    const backwards = refusalOf(await send(IssuingFundsCommand.createReport, { report_type: 'SETTLEMENT', start_time: to, end_time: from }, account));
    expect(backwards).toMatchObject({ status: 400, body: { type: 'invalid_request_error' } });
    expect(String(backwards.body.message)).toContain('end_time must be after start_time');
  });

  it('keeps a sub-account\'s balances to it', async () => {
    const account = await newSubAccount();
    expect(resultOf(await send(IssuingFundsCommand.listBalances, page, account))).toEqual({ total_pages: 0, total_items: 0, data: [] });
    expect(SANDBOX_SEED_DEFAULTS.master.accountId).toBe(master.account_id);
  });
});
