import { randomUUID } from 'node:crypto';
import { CardOrderView, IssuingCommand, IssuingLedgerAuditCommand, SANDBOX_POOL_BIN } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { IssuingApp, resultOf, SANDBOX_ACTORS, startIssuingApp } from '../../test/issuing-app.harness';

/**
 * `issuing.ledger.verify` (the issuing half of `paygrid ledger verify`) on a real issuing service: clean
 * after a card's recharges and withdrawals, and naming what is wrong when an order and the ledger disagree.
 */
describe('issuing ledger audit', () => {
  const actor = SANDBOX_ACTORS.master;
  let issuing: IssuingApp;

  beforeAll(async () => {
    issuing = await startIssuingApp();
  }, 120_000);

  afterAll(async () => {
    await issuing?.close();
  });

  const audit = async () => resultOf(await issuing.send(IssuingLedgerAuditCommand.verifyLedger, {}, null));
  const finished = (order: CardOrderView) =>
    waitFor(
      async () => {
        const current = resultOf(await issuing.send(IssuingCommand.retrieveCardOrder, { card_order_id: order.card_order_id }, actor));
        return ['SUCCESS', 'FAILED'].includes(current.order_status) ? current : undefined;
      },
      { what: `card order ${order.card_order_id} to finish` },
    );

  it('is clean after recharges and withdrawals, open or finished, succeeded or failed', async () => {
    const products = resultOf(await issuing.send(IssuingCommand.listProducts, { page_size: 10, page_number: 1 }, actor));
    const product = products.data.find((candidate) => candidate.card_bin === SANDBOX_POOL_BIN && candidate.mode_type === 'SHARE');
    const holder = resultOf(
      await issuing.send(
        IssuingCommand.createCardholder,
        { email: `audit.${randomUUID()}@example.com`, first_name: 'Ledger', last_name: 'Audit', country_code: 'SG', phone_number: '+6581234567', date_of_birth: '1985-05-05' },
        actor,
      ),
    );
    await waitFor(
      async () => resultOf(await issuing.send(IssuingCommand.retrieveCardholder, { cardholder_id: holder.cardholder_id }, actor)).cardholder_status === 'SUCCESS',
      { what: 'KYC to succeed' },
    );
    const card = resultOf(
      await issuing.send(IssuingCommand.createCard, { card_currency: 'USD', cardholder_id: holder.cardholder_id, card_product_id: product?.product_id }, actor),
    );
    await waitFor(
      async () => resultOf(await issuing.send(IssuingCommand.retrieveCard, { card_id: card.card_id }, actor)).card_status === 'ACTIVE',
      { what: 'the card to be issued' },
    );
    const moved = [
      await finished(resultOf(await issuing.send(IssuingCommand.rechargeCard, { card_id: card.card_id, amount: 30 }, actor))),
      await finished(resultOf(await issuing.send(IssuingCommand.rechargeCard, { card_id: card.card_id, amount: 2.13 }, actor))),
      await finished(resultOf(await issuing.send(IssuingCommand.withdrawCard, { card_id: card.card_id, amount: 10 }, actor))),
    ];
    expect(moved.map((order) => order.order_status)).toEqual(['SUCCESS', 'FAILED', 'SUCCESS']);
    // Left to finish on its own: open or finished when the audit reads it, its money is accounted for.
    resultOf(await issuing.send(IssuingCommand.withdrawCard, { card_id: card.card_id, amount: 5 }, actor));

    const report = await audit();
    expect(report.discrepancies).toEqual([]);
    expect(report.entries).toBeGreaterThanOrEqual(6);
    expect(report.ledger_accounts).toBeGreaterThan(0);
  });

  it('names an open order whose money the ledger never reserved', async () => {
    const [order] = await issuing.dataSource.query(`SELECT * FROM card_orders WHERE order_type = 'CARD_RECHARGE' LIMIT 1`);
    const forged = randomUUID();
    // A row written behind the service's back (a bad restore, a hand edit): an open recharge of 7.00.
    await issuing.dataSource.query(
      `INSERT INTO card_orders (card_order_id, card_id, account_id, order_type, order_status, amount_minor, currency)
       VALUES ($1, $2, $3, 'CARD_RECHARGE', 'PROCESSING', 700, $4)`,
      [forged, order.card_id, order.account_id, order.currency],
    );
    const held = await issuing.dataSource.query(
      `SELECT coalesce(sum(p.amount), 0)::text AS total FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
        WHERE a.owner_id = $1 AND a.currency = $2 AND a.bucket = 'recharge_in_flight'`,
      [order.account_id, order.currency],
    );
    expect((await audit()).discrepancies).toEqual([
      `${order.account_id}/${order.currency}/recharge_in_flight: ledger holds ${held[0].total}, open card orders sum to ${BigInt(held[0].total) + 700n}`,
      `card order ${forged} (CARD_RECHARGE, PROCESSING) has no reserve entry`,
    ]);
  });
});
