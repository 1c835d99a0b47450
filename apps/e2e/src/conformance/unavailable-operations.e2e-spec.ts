import { api, SANDBOX, tokenFor } from '../support/api-client';

/**
 * Issue 13 item 7: a spec operation not built yet must not invite the official SDKs' automatic retries
 * (they retry 408, 429 and every 5xx twice more, and any message containing "request is processing"): it
 * answers HTTP 400 envelope A `operation_not_available`. The simulator paths are spelled as the SDKs call
 * them, `/v1/simulation/...` (wire-compat §12). Every simulator of wire-compat §12 is built now; the
 * catch-all still answers any other simulator path the SDKs may call, such as a clearing trigger.
 */
describe('operations not available yet', () => {
  let master: string;
  beforeAll(async () => {
    master = await tokenFor(SANDBOX.master);
  });

  it('answers 400 operation_not_available, which no SDK retries, on the SDK’s simulator path', async () => {
    const answer = await api('POST', '/v1/simulation/issuing/clearing', {
      token: master,
      body: { amount: 100, currency: 'USD', sender_swift_code: 'DBSSSGSGXXX' },
    });
    const operation = 'POST /api/v1/simulation/issuing/clearing';
    const refusal = {
      type: 'invalid_request_error',
      code: 'operation_not_available',
      message: `${operation} is not available yet on this platform`,
    };
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: refusal });
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(String((answer.body as { message: string }).message).toLowerCase()).not.toContain(
      'request is processing',
    );
  });

  it('still authenticates first', async () => {
    const answer = await api('POST', '/v1/simulation/issuing/clearing', { body: {} });
    expect(answer.status).toBe(401);
  });

  it('does not serve the misspelled /v1/simulator/ prefix', async () => {
    const answer = await api('POST', '/v1/simulator/deposit', { token: master, body: {} });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'resource_not_found' });
  });
});
