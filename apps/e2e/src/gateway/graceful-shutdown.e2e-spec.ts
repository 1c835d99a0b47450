import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { KafkaNames } from '@paygrid/platform';
import { waitFor } from '@paygrid/testing';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { BusCapture } from '../support/bus-capture';
import { pauseApp, resumeApp, startAppAgain, terminateApp } from '../support/stack-control';
import { E2E_GATEWAY, E2E_LOG_DIRECTORY, e2eKafkaPrefix } from '../support/stack-settings';

/**
 * SIGTERM, as Kubernetes stops a pod: the gateway answers every new request in the API's envelope (503
 * api_error with Retry-After, never Fastify's own body), lets the request already in flight finish with
 * its real answer, and exits on its own well within the pod's grace period.
 */
const GATEWAY_LOG = path.join(E2E_LOG_DIRECTORY, 'gateway.log');

describe('gateway shutdown', () => {
  it('drains the request in flight, refuses new ones in the envelope, then stops', async () => {
    const token = await tokenFor(SANDBOX.master);
    const logOffset = statSync(GATEWAY_LOG).size;
    // The barrier: accounts is frozen, so the listing stays in flight until the test lets it go.
    const capture = await BusCapture.start([new KafkaNames(e2eKafkaPrefix()).commandTopic('accounts')]);
    pauseApp('accounts');
    let stopped: Promise<void> | undefined;
    try {
      const inFlight = api<{ data: unknown[] }>('GET', '/v1/accounts?page_size=10&page_number=1', { token });
      await waitFor(() => capture.messages().length > 0, { what: 'the listing command to be on the bus' });
      stopped = terminateApp('gateway', 30_000);
      await waitFor(
        async () => (await fetch(`${E2E_GATEWAY}/health/live`).catch(() => undefined))?.status === 503,
        {
          intervalMs: 20,
          what: 'the gateway to start draining',
        },
      );

      const refused = await api('GET', '/v1/accounts?page_size=10&page_number=1', { token });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toEqual({
        type: 'api_error',
        code: 'api_error',
        message: 'The service is restarting; retry shortly with the same idempotency key',
      });

      resumeApp('accounts');
      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(finished.body.data.length).toBeGreaterThan(0);
      await stopped;
    } finally {
      resumeApp('accounts');
      await capture.stop();
      await stopped?.catch(() => undefined);
      await startAppAgain('gateway');
    }
    const log = readFileSync(GATEWAY_LOG, 'utf8').slice(logOffset);
    expect(log).toContain('"msg":"shutting down: refusing new requests, finishing those in flight"');
    expect(log).toContain('"msg":"stopped"');
    expect(log).not.toContain('"level":"fatal"');
  });
});
