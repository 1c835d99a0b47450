import { Actor, CreateCardPayload, IssuingCommand } from '@paygrid/contracts';
import { waitFor } from '@paygrid/testing';
import { IssuingApp, resultOf } from '../../../test/issuing-app.harness';

/** How the fixture sends a command: the in-process app's `send`, or a stack client to a child process. */
export type SendCommand = IssuingApp['send'];

/**
 * A verified cardholder's active virtual USD card with `funds` recharged onto it, made through the commands a
 * merchant would send (the card tests' starting point). Every wait polls the state it needs, with a deadline.
 */
let sequence = 0;

export async function fundedCard(
  issuing: { send: SendCommand },
  actor: Actor,
  funds: number,
  card: Partial<CreateCardPayload> = {},
): Promise<string> {
  sequence += 1;
  const unique = `${process.pid}${sequence}${Date.now() % 100_000}`;
  const holder = resultOf(
    await issuing.send(
      IssuingCommand.createCardholder,
      {
        email: `tx${unique}@example.com`,
        first_name: 'Grace',
        last_name: 'Hopper',
        country_code: 'SG',
        phone_number: `+659${unique.slice(-7).padStart(7, '1')}`,
        date_of_birth: '1985-12-09',
      },
      actor,
    ),
  );
  await waitFor(
    async () => resultOf(await issuing.send(IssuingCommand.retrieveCardholder, { cardholder_id: holder.cardholder_id }, actor)).cardholder_status === 'SUCCESS',
    { what: 'the cardholder KYC to pass', timeoutMs: 15_000 },
  );
  const products = resultOf(await issuing.send(IssuingCommand.listProducts, { page_size: 10, page_number: 1 }, actor));
  const product = products.data.find((candidate) => candidate.mode_type === 'SHARE' && candidate.product_status === 'ENABLED' && candidate.card_bin === '491090');
  const created = resultOf(
    await issuing.send(
      IssuingCommand.createCard,
      { card_currency: 'USD', cardholder_id: holder.cardholder_id, card_product_id: product?.product_id, ...card },
      actor,
    ),
  );
  await waitFor(async () => resultOf(await issuing.send(IssuingCommand.retrieveCard, { card_id: created.card_id }, actor)).card_status === 'ACTIVE', {
    what: 'the card to be issued',
  });
  if (funds > 0) {
    const order = resultOf(await issuing.send(IssuingCommand.rechargeCard, { card_id: created.card_id, amount: funds }, actor));
    await waitFor(
      async () => resultOf(await issuing.send(IssuingCommand.retrieveCardOrder, { card_order_id: order.card_order_id }, actor)).order_status === 'SUCCESS',
      { what: 'the recharge to settle' },
    );
  }
  return created.card_id;
}

export async function cardBalance(issuing: { send: SendCommand }, actor: Actor, cardId: string): Promise<number> {
  return resultOf(await issuing.send(IssuingCommand.retrieveCard, { card_id: cardId }, actor)).available_balance;
}
