import { maintenanceClient } from '../database-work';
import { summarise } from '../stats';

/**
 * Where a webhook's time goes between its event's commit and its arrival at the receiver, stage by stage,
 * for the first deliveries to one endpoint of the c16 run (issue 12's one target no run has passed; the
 * stages say which hop to work on). The stamps, all on this machine's clock:
 * - committed: the outbox row's `created_at` (its writer's transaction start, a few ms before the commit);
 * - relayed: its `published_at` (the relay's batch transaction start, just before the produce);
 * - taken in: the dispatcher's `webhook_events.received_at` (its intake transaction start);
 * - POST started: the first attempt's `attempted_at`, stamped as the dispatcher signs it;
 * - arrived: the receiver's stamp once the whole request arrived (receiver-thread.ts).
 * So the stages are: relay (the relay's wake-up, gather and the batch ahead of it), broker (produce, fetch and
 * the dispatcher's turn), intake (its transaction and a direct-send slot), post (the request on the wire and
 * the dispatcher's event loop sending it).
 */
export interface WebhookStamps {
  eventId: string;
  committed: number;
  relayed: number;
  takenIn: number;
  postStarted: number;
}

export const WEBHOOK_STAGES = ['relay', 'broker', 'intake', 'post'] as const;

/** p50 and p99 per stage, in ms, of the deliveries that have every stamp (arrivals keyed by event id). */
export function webhookStageFigures(
  stamps: readonly WebhookStamps[],
  arrivals: ReadonlyMap<string, number>,
): Record<string, number> {
  const durations: Record<(typeof WEBHOOK_STAGES)[number], number[]> = {
    relay: [],
    broker: [],
    intake: [],
    post: [],
  };
  for (const stamp of stamps) {
    const arrived = arrivals.get(stamp.eventId);
    if (arrived === undefined) continue;
    durations.relay.push(stamp.relayed - stamp.committed);
    durations.broker.push(stamp.takenIn - stamp.relayed);
    durations.intake.push(stamp.postStarted - stamp.takenIn);
    durations.post.push(arrived - stamp.postStarted);
  }
  const figures: Record<string, number> = { webhook_stage_deliveries: durations.relay.length };
  for (const stage of WEBHOOK_STAGES) {
    const { p50_ms, p99_ms } = summarise(durations[stage]);
    figures[`webhook_stage_${stage}_p50_ms`] = p50_ms;
    figures[`webhook_stage_${stage}_p99_ms`] = p99_ms;
  }
  return figures;
}

/**
 * The relay's cycle, read from the same stamps: rows published by one batch share its `published_at` (the
 * batch transaction's start), so the distinct values are the batches. A long relay stage is an event that
 * waited behind a long cycle (docs/performance.md §41): the interval from one batch's start to the next is the
 * cycle, and the rows per batch what it gathered. Intervals between batches more than a second apart (an idle
 * relay, not a cycle) are left out.
 */
export function relayBatchFigures(stamps: readonly Pick<WebhookStamps, 'relayed'>[]): Record<string, number> {
  const rowsPerBatch = new Map<number, number>();
  for (const { relayed } of stamps) rowsPerBatch.set(relayed, (rowsPerBatch.get(relayed) ?? 0) + 1);
  const starts = [...rowsPerBatch.keys()].sort((a, b) => a - b);
  const intervals = starts.slice(1).map((start, index) => start - starts[index]).filter((gap) => gap <= 1_000);
  const cycle = summarise(intervals);
  return {
    relay_batches: starts.length,
    relay_batch_rows_p50: summarise([...rowsPerBatch.values()]).p50_ms,
    relay_batch_interval_p50_ms: cycle.p50_ms,
    relay_batch_interval_p99_ms: cycle.p99_ms,
  };
}

/**
 * The stamps of events acquiring committed in [fromMs, toMs] and first attempts to `endpointId`, read from the
 * stack's acquiring and webhooks databases after the run drained.
 */
export async function readWebhookStamps(
  serverUrl: string,
  databaseSuffix: string,
  endpointId: string,
  window: { fromMs: number; toMs: number },
): Promise<WebhookStamps[]> {
  const outbox = await queryOn<{ event_id: string; committed: number; relayed: number }>(
    serverUrl,
    `paygrid_acquiring${databaseSuffix}`,
    `SELECT event_id, extract(epoch FROM created_at) * 1000 AS committed, extract(epoch FROM published_at) * 1000 AS relayed
       FROM outbox WHERE published_at IS NOT NULL AND created_at BETWEEN to_timestamp($1 / 1000.0) AND to_timestamp($2 / 1000.0)`,
    [window.fromMs, window.toMs],
  );
  const attempts = await queryOn<{ event_id: string; taken_in: number; post_started: number }>(
    serverUrl,
    `paygrid_webhooks${databaseSuffix}`,
    `SELECT a.event_id, extract(epoch FROM e.received_at) * 1000 AS taken_in, extract(epoch FROM a.attempted_at) * 1000 AS post_started
       FROM webhook_attempts a JOIN webhook_events e USING (event_id)
      WHERE a.endpoint_id = $1 AND a.attempt_number = 1 AND e.created_at >= to_timestamp($2 / 1000.0)`,
    [endpointId, window.fromMs],
  );
  const attemptOf = new Map(attempts.map((row) => [row.event_id, row]));
  return outbox.flatMap((row) => {
    const attempt = attemptOf.get(row.event_id);
    if (!attempt) return [];
    return [
      {
        eventId: row.event_id,
        committed: Number(row.committed),
        relayed: Number(row.relayed),
        takenIn: Number(attempt.taken_in),
        postStarted: Number(attempt.post_started),
      },
    ];
  });
}

async function queryOn<Row extends object>(
  serverUrl: string,
  database: string,
  sql: string,
  params: unknown[],
): Promise<Row[]> {
  const client = await maintenanceClient(serverUrl, database);
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
