import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '@paygrid/testing';
import { api, SANDBOX, tokenFor } from '../support/api-client';
import { companySubAccount } from '../support/fixtures';
import { queryE2eDatabase } from '../support/databases';
import { E2E_GATEWAY, E2E_LOG_DIRECTORY } from '../support/stack-settings';
import { killApp, stackPids, startAppAgain } from '../support/stack-control';
import { AppsCgroup } from '@paygrid/local-stack';
import { APP_CATALOG } from '@paygrid/platform';

/**
 * The platform slice end to end: health of every dependency and service, a request becoming a Kafka
 * command and its reply, the resulting event reaching the webhook dispatcher's store, correlation ids
 * across services, and recovery when a service is down.
 */
describe('platform slice', () => {
  it('reports every dependency and every service up at /api/health', async () => {
    const health = await api<{ status: string; checks: Record<string, { status: string }> }>('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('up');
    for (const name of ['postgres', 'kafka', 'redis', 'service:accounts', 'service:acquiring', 'service:payouts', 'service:issuing', 'service:webhooks']) {
      expect(health.body.checks[name]).toMatchObject({ status: 'up' });
    }
  });

  it('turns a request into a command, returns the reply, and delivers the event to the dispatcher inbox', async () => {
    const token = await tokenFor(SANDBOX.master);
    const nickname = `Slice ${randomUUID().slice(0, 8)}`;
    const created = await api<{ account_id: string; status: string }>('POST', '/v1/accounts/create_accounts', {
      token,
      body: companySubAccount(nickname),
    });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('PROCESSING');

    const stored = await waitFor(
      async () => {
        const rows = await queryE2eDatabase<{ event_name: string }>(
          'paygrid_webhooks',
          'SELECT event_name FROM webhook_events WHERE source_id = $1',
          [created.body.account_id],
        );
        return rows.some((row) => row.event_name === 'account.created') ? rows : undefined;
      },
      { what: 'account.created in the dispatcher store' },
    );
    expect(stored.filter((row) => row.event_name === 'account.created')).toHaveLength(1);
    const inbox = await queryE2eDatabase('paygrid_webhooks', "SELECT count(*)::int AS n FROM inbox WHERE consumer = 'webhook-intake'");
    expect(Number(inbox[0].n)).toBeGreaterThan(0);
  });

  it('carries the caller correlation id through the gateway into the service logs', async () => {
    const token = await tokenFor(SANDBOX.master);
    const correlationId = `e2e-${randomUUID()}`;
    const response = await api('GET', '/v1/accounts?page_size=10&page_number=1', {
      token,
      headers: { 'x-request-id': correlationId },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(correlationId);
    await api('GET', `/v1/accounts/${randomUUID()}`, { token, headers: { 'x-request-id': correlationId } });
    for (const app of ['gateway', 'accounts']) {
      await waitFor(() => readFileSync(path.join(E2E_LOG_DIRECTORY, `${app}.log`), 'utf8').includes(correlationId), {
        what: `the correlation id in the ${app} log`,
      });
    }
  });

  it('serves Prometheus metrics and liveness on every app', async () => {
    const metrics = await fetch(`${E2E_GATEWAY}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
    const live = await fetch(`${E2E_GATEWAY}/health/live`);
    expect(await live.json()).toEqual({ status: 'up' });
  });

  it('runs every app in a cpu cgroup its launcher made, where a launcher may make one (docs/deploy.md)', () => {
    // A group made and removed here tells whether this machine lets the launcher make one (root, cgroup v1).
    const probe = new AppsCgroup();
    const mayMake = probe.activeShares() !== null;
    probe.removeIfEmpty();
    const cpuGroupOf = (pid: number) => /^\d+:cpu:(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, 'utf8'))?.[1];
    const groups = Object.values(stackPids()).map(cpuGroupOf);
    expect(groups).toHaveLength(APP_CATALOG.length);
    // An app a test started again runs in that test's launcher group, so each names a group, not one shared.
    for (const group of groups) expect(group).toMatch(mayMake ? /^\/paygrid-apps-\d+$/ : /^\/$/);
  });

  it('answers api_error while a service is down and succeeds when the retry comes after it is back', async () => {
    const token = await tokenFor(SANDBOX.master);
    await killApp('accounts');
    const down = await api('GET', '/v1/accounts?page_size=10&page_number=1', { token });
    expect(down.status).toBe(500);
    expect(down.body).toMatchObject({ type: 'api_error', code: 'api_error' });
    expect(String((down.body as { message: string }).message)).toMatch(/retry/i);

    await startAppAgain('accounts');
    const retried = await api<{ data: unknown[] }>('GET', '/v1/accounts?page_size=10&page_number=1', { token });
    expect(retried.status).toBe(200);
    expect(retried.body.data.length).toBeGreaterThan(0);
  });
});
