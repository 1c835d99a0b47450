import { IssuingTransactionCommand } from '@paygrid/contracts';
import { WebhookReceiver } from '@paygrid/testing';
import { IssuingApp, refusalOf, resultOf, SANDBOX_ACTORS, startIssuingApp } from '../../test/issuing-app.harness';
import { fundedCard } from '../authorization/test/funded-card.fixture';

/**
 * Decision endpoint safety (docs/issuing.md) against the real Postgres, Redis and Kafka: with private URLs refused
 * (ISSUING_DECISION_ALLOW_PRIVATE_URLS=false, production's setting), setting an endpoint on a loopback, metadata or
 * unique-local address answers 400 and changes nothing, and an endpoint set while such addresses were allowed is
 * never called: the authorization takes the endpoint's default decision. `localhost` goes through the real
 * resolver, so the second check is the one made when the call's socket looks the host up.
 */
const master = SANDBOX_ACTORS.master;

describe('decision endpoint safety', () => {
  let issuing: IssuingApp;
  let receiver: WebhookReceiver;
  let cardId: string;
  const send: IssuingApp['send'] = (definition, payload, actor) => issuing.send(definition, payload, actor);
  const authorize = async (amount: number) =>
    resultOf(
      await send(
        IssuingTransactionCommand.simulateAuthorization,
        { card_id: cardId, transaction_amount: amount, transaction_currency: 'USD', merchant_name: 'Corner Grocer', merchant_category_code: '5411', transaction_status: 'APPROVED' },
        master,
      ),
    );

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // The receiver approves everything: an authorization it was asked about is APPROVED, the default is DECLINE.
    receiver.respond('/decide', (request) => ({
      status: 200,
      body: JSON.stringify({ transaction_id: (JSON.parse(request.rawBody) as { transaction_id: string }).transaction_id, response_code: '00' }),
    }));
    issuing = await startIssuingApp({ AUTH_CLEARING_DELAY_MS: '60000' });
    cardId = await fundedCard(issuing, master, 50);
    resultOf(await send(IssuingTransactionCommand.setDecisionEndpoint, { url: `http://localhost:${receiver.port}/decide`, default_decision: 'DECLINE', timeout_ms: 2000 }, master));
  }, 120_000);

  afterAll(async () => {
    await issuing?.close();
    await receiver?.close();
  });

  it('asks a loopback endpoint while private URLs are allowed (the receiver is reachable)', async () => {
    expect(await authorize(5)).toMatchObject({ transaction_status: 'APPROVED' });
    expect(receiver.received('/decide')).toHaveLength(1);
  });

  describe('once private URLs are refused', () => {
    beforeAll(async () => {
      receiver.clear();
      await issuing.harness.restartApp({ ISSUING_DECISION_ALLOW_PRIVATE_URLS: 'false' });
    }, 120_000);

    it('does not call the stored loopback endpoint: the default decision applies, saying why', async () => {
      const declined = await authorize(6);
      expect(declined).toMatchObject({ transaction_status: 'DECLINED' });
      expect(declined.failure_reason).toMatch(/^decision endpoint: refused: (127\.0\.0\.1|::1) is a loopback, private, link-local or reserved address; default DECLINE applied$/);
      expect(receiver.received()).toHaveLength(0);
    });

    it('refuses to set a loopback, metadata or unique-local URL with a 400 naming the address, and keeps the endpoint', async () => {
      for (const [url, address] of [
        [`http://127.0.0.1:${receiver.port}/decide`, '127.0.0.1'],
        [`http://localhost:${receiver.port}/decide`, 'localhost resolves to'],
        ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
        ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
        ['http://[::ffff:7f00:1]:8080/', '::ffff:7f00:1'],
      ]) {
        const refusal = refusalOf(await send(IssuingTransactionCommand.setDecisionEndpoint, { url }, master));
        expect([url, refusal.status, refusal.body.type, refusal.body.code]).toEqual([url, 400, 'invalid_request_error', 'invalid_decision_endpoint_url']);
        expect(refusal.body.message).toContain(address);
      }
      expect(resultOf(await send(IssuingTransactionCommand.retrieveDecisionEndpoint, {}, master))).toMatchObject({
        url: `http://localhost:${receiver.port}/decide`,
        default_decision: 'DECLINE',
      });
    });
  });
});
