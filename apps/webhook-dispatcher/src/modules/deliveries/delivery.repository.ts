import { Injectable } from '@nestjs/common';
import { Executor, rowsOf, Statement } from '@paygrid/platform';
import { newId } from '@paygrid/ids';
import { Endpoint, EndpointRow } from '../endpoints/endpoint.types';
import { EndpointStatus } from '../endpoints/endpoint.states';
import { activeSecretsOf, toEndpoint } from '../endpoints/endpoint.repository';
import {
  Attempt,
  AttemptRow,
  Delivery,
  DeliveryRow,
  DeliveryWithEvent,
  DeliveryWithEventRow,
  DueDelivery,
} from './delivery.types';
import { DeliveryEvent, deliveryMachine, DeliveryStatus } from './delivery.states';
import { WebhookSecretVault } from '../secrets/webhook-secret-vault';

/**
 * All SQL of webhook_deliveries and webhook_attempts, raw, with typed row mappers, and what a delivery
 * needs to know of its endpoint (its status, its URL, what sending needs). Status writes are
 * conditional updates on the statuses delivery.states.ts allows, and the ones a worker makes also on
 * `attempt_count`, so a stale or duplicated job (BullMQ and the reconciler may both hold one) can never
 * record an attempt twice or overwrite a newer outcome. Attempts are only ever inserted (a trigger
 * forbids anything else).
 */
type DueRow = Pick<DeliveryRow, 'delivery_id' | 'attempt_count' | 'next_attempt_at'>;

export const DELIVERY_ID_PREFIX = 'del';

/**
 * "Still pending", for a delivery found by its key: not in the form of the partial indexes' predicate
 * (`status = 'pending'`), so the planner cannot take a full scan of `webhook_deliveries_due` for a key lookup.
 * It would whenever the statistics were taken while nothing was pending: that index then looks empty, and a
 * retry's claim read every scheduled delivery (docs/performance.md §30). Equal to `status = 'pending'` under
 * the status CHECK.
 */
const STILL_PENDING = `status NOT IN ('succeeded', 'failed', 'cancelled')`;

export interface DeliveryFilters {
  accountId: string | null;
  status?: DeliveryStatus;
  eventName?: string;
  endpointId?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

export interface NewDelivery {
  eventId: string;
  eventName: string;
  endpointId: string;
  /** The endpoint owner's account. */
  accountId: string;
  /**
   * Its endpoint is failing: the delivery waits, with no attempt scheduled (`next_attempt_at` null), until
   * the endpoint answers again (`releaseHeld`) or the reconciler needs it as the endpoint's next probe
   * (`releaseStranded`). See endpoint-streak.ts `holdsNewDeliveries`.
   */
  held: boolean;
}

/**
 * A delivery the intake inserted, with the pair it came from; `leased`: its first attempt is the caller's;
 * `due`: its first attempt, null while it is held.
 */
export interface InsertedDelivery {
  delivery: Delivery;
  pair: NewDelivery;
  due: DueDelivery | null;
  leased: boolean;
}

/** A leased delivery with everything its attempt needs. */
export interface ClaimedDelivery {
  delivery: Delivery;
  endpoint: Endpoint;
  body: string;
  /** The event's create_time (for the event-to-delivery latency metric). */
  eventCreatedAt: Date;
  /** Active secrets, newest first. */
  secrets: string[];
}

export interface AttemptOutcome {
  deliveryId: string;
  /** The attempt just made (attempt_count before it was attempt - 1). */
  attempt: number;
  event: Extract<DeliveryEvent, 'SUCCEED' | 'FAIL' | 'RESCHEDULE'>;
  nextAttemptAt: Date | null;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  url: string;
  latencyMs: number;
  responseExcerpt: string;
}

const WITH_EVENT = `SELECT d.*, e.event_type, e.account_id AS event_account_id
                      FROM webhook_deliveries d JOIN webhook_events e ON e.event_id = d.event_id`;

/** A delivery as one merchant or operator may see it, with its endpoint's URL (null once deleted). */
export type VisibleDelivery = DeliveryWithEvent & { endpointUrl: string | null };

@Injectable()
export class DeliveryRepository {
  constructor(private readonly secretVault: WebhookSecretVault) {}

  /**
   * One pending delivery per (event, endpoint), due now unless held; a repeated pair adds nothing. The first
   * `leased.count` pairs (none of them held) are inserted already leased for `leased.ms`: the caller sends
   * their first attempt itself (direct-sends.ts), exactly as if it had claimed them, so no other worker
   * takes them meanwhile.
   */
  async insertMany(
    executor: Executor,
    pairs: NewDelivery[],
    leased: { count: number; ms: number } = { count: 0, ms: 0 },
  ): Promise<InsertedDelivery[]> {
    if (pairs.length === 0) return [];
    const { statement, read } = this.insertManyStatement(pairs, leased);
    return read(await executor.query(statement.sql, statement.params));
  }

  /**
   * `insertMany` as a statement to write and a reading of its rows: the intake writes it with its COMMIT
   * (transactionEndingWith) and reads the deliveries once committed.
   */
  insertManyStatement(
    pairs: NewDelivery[],
    leased: { count: number; ms: number },
  ): { statement: Statement; read: (rows: DeliveryRow[]) => InsertedDelivery[] } {
    const ids = pairs.map(() => newId(DELIVERY_ID_PREFIX));
    const statement: Statement = {
      sql: `INSERT INTO webhook_deliveries
         (delivery_id, event_id, endpoint_id, account_id, event_name, status, next_attempt_at, lease_until)
       SELECT t.delivery_id, t.event_id, t.endpoint_id, t.account_id, t.event_name, 'pending',
              CASE WHEN NOT t.held THEN now() END,
              CASE WHEN t.ord <= $6 AND NOT t.held THEN now() + $7 * interval '1 millisecond' END
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $8::boolean[]) WITH ORDINALITY
              AS t(delivery_id, event_id, endpoint_id, account_id, event_name, held, ord)
       ON CONFLICT (event_id, endpoint_id) DO NOTHING
       RETURNING *`,
      params: [
        ids,
        pairs.map((pair) => pair.eventId),
        pairs.map((pair) => pair.endpointId),
        pairs.map((pair) => pair.accountId),
        pairs.map((pair) => pair.eventName),
        leased.count,
        leased.ms,
        pairs.map((pair) => pair.held),
      ],
    };
    const pairOfId = new Map<string, NewDelivery>(ids.map((id, index) => [id, pairs[index]]));
    const read = (rows: DeliveryRow[]) =>
      rows.map((row) => {
        const delivery = toDelivery(row);
        return {
          delivery,
          pair: pairOfId.get(row.delivery_id) as NewDelivery,
          due: row.next_attempt_at === null ? null : dueOf(row),
          leased: delivery.leaseUntil !== null,
        };
      });
    return { statement, read };
  }

  /**
   * Takes a lease on a pending delivery for attempt `attempt`: only if it still waits for exactly that
   * attempt and no live lease exists. Null means the job is stale or someone else is sending it. In the
   * same round trip: what sending needs (the stored body, the endpoint, its active secrets newest first).
   */
  async claim(
    executor: Executor,
    deliveryId: string,
    attempt: number,
    leaseMs: number,
  ): Promise<ClaimedDelivery | null> {
    const [row] = await executor.query(
      `WITH claimed AS (
         UPDATE webhook_deliveries SET lease_until = now() + $3 * interval '1 millisecond'
          WHERE delivery_id = $1 AND ${STILL_PENDING} AND attempt_count = $2
            AND (lease_until IS NULL OR lease_until < now())
          RETURNING *)
       SELECT c.*, e.body, e.created_at AS event_created_at, to_jsonb(p) AS endpoint,
              ${activeSecretsOf('p')} AS secrets
         FROM claimed c
         JOIN webhook_events e ON e.event_id = c.event_id
         JOIN webhook_endpoints p ON p.endpoint_id = c.endpoint_id`,
      [deliveryId, attempt - 1, leaseMs],
    );
    if (!row) return null;
    const claimed = row as ClaimedRow;
    return {
      delivery: toDelivery(claimed),
      endpoint: toEndpoint(claimed.endpoint),
      body: claimed.body,
      eventCreatedAt: claimed.event_created_at,
      secrets: claimed.secrets.map((sealed) => this.secretVault.open(claimed.endpoint_id, sealed)),
    };
  }

  /**
   * Records attempt n in one statement: the delivery's new status (conditional on its status and on
   * attempt n - 1 being the last one recorded) and, only if that matched, the attempt row. False when
   * another worker already recorded attempt n; nothing is written then.
   */
  async recordAttempt(executor: Executor, outcome: AttemptOutcome): Promise<boolean> {
    const { statement, read } = this.recordAttemptsStatement([outcome]);
    const [recorded] = read(rowsOf(await executor.query(statement.sql, statement.params)));
    return recorded;
  }

  /**
   * `recordAttempt` for several deliveries in one statement (each row on its own conditions), as a statement
   * to write and a reading of its rows, one boolean per outcome in order: the group commit of successes
   * writes it with COMMIT (delivery-processor.ts).
   */
  recordAttemptsStatement(outcomes: AttemptOutcome[]): {
    statement: Statement;
    read: (rows: { delivery_id: string }[]) => boolean[];
  } {
    const column = <T>(pick: (outcome: AttemptOutcome) => T) => outcomes.map(pick);
    const statement: Statement = {
      sql: `WITH outcome AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::timestamptz[],
                                $7::int[], $8::text[], $9::text[], $10::int[], $11::text[], $12::boolean[])
             AS t(delivery_id, allowed_from, status, attempt, next_attempt_at, attempted_at, status_code, error,
                  url, latency_ms, response_excerpt, succeeded)),
         finished AS (
           UPDATE webhook_deliveries d SET
             status = o.status, attempt_count = o.attempt, next_attempt_at = o.next_attempt_at, lease_until = NULL,
             last_attempt_at = o.attempted_at, last_status_code = o.status_code, last_error = o.error,
             completed_at = CASE WHEN o.status = 'pending' THEN NULL ELSE now() END, updated_at = now()
           FROM outcome o
           WHERE d.delivery_id = o.delivery_id AND d.status = ANY(string_to_array(o.allowed_from, ','))
             AND d.attempt_count = o.attempt - 1
           RETURNING d.delivery_id, d.endpoint_id, d.event_id, d.trigger, o.attempt, o.url, o.attempted_at,
                     o.status_code, o.error, o.latency_ms, o.response_excerpt, o.succeeded)
         INSERT INTO webhook_attempts
           (delivery_id, attempt_number, endpoint_id, event_id, trigger, url, attempted_at, status_code, error,
            latency_ms, response_excerpt, succeeded)
         SELECT delivery_id, attempt, endpoint_id, event_id, trigger, url, attempted_at, status_code, error,
                latency_ms, response_excerpt, succeeded FROM finished
         RETURNING delivery_id`,
      params: [
        column((outcome) => outcome.deliveryId),
        column((outcome) => deliveryMachine.allowedFrom(outcome.event).join(',')),
        column((outcome) => deliveryMachine.targetOf(outcome.event)),
        column((outcome) => outcome.attempt),
        column((outcome) => outcome.nextAttemptAt),
        column((outcome) => outcome.attemptedAt),
        column((outcome) => outcome.statusCode),
        column((outcome) => outcome.error),
        column((outcome) => outcome.url),
        column((outcome) => outcome.latencyMs),
        column((outcome) => outcome.responseExcerpt),
        column((outcome) => outcome.event === 'SUCCEED'),
      ],
    };
    const read = (rows: { delivery_id: string }[]) => {
      const recorded = new Set(rows.map((row) => row.delivery_id));
      return outcomes.map((outcome) => recorded.has(outcome.deliveryId));
    };
    return { statement, read };
  }

  /** Ends one pending delivery without an attempt (its endpoint is disabled or gone). */
  async settle(
    executor: Executor,
    deliveryId: string,
    event: 'FAIL' | 'CANCEL',
    reason: string,
  ): Promise<boolean> {
    const rows = rowsOf<Pick<DeliveryRow, 'delivery_id'>>(
      await executor.query(
        `UPDATE webhook_deliveries SET status = $3, next_attempt_at = NULL, lease_until = NULL, last_error = $4,
                completed_at = now(), updated_at = now()
          WHERE delivery_id = $1 AND status = ANY($2) RETURNING delivery_id`,
        [deliveryId, deliveryMachine.allowedFrom(event), deliveryMachine.targetOf(event), reason],
      ),
    );
    return rows.length === 1;
  }

  /**
   * Ends every waiting delivery of an endpoint. A delivery in flight (live lease) is left to its worker,
   * which records its attempt and then sees the endpoint's new status.
   */
  async settlePendingOfEndpoint(
    executor: Executor,
    endpointId: string,
    event: 'FAIL' | 'CANCEL',
    reason: string,
  ): Promise<number> {
    const rows = rowsOf<Pick<DeliveryRow, 'delivery_id'>>(
      await executor.query(
        `UPDATE webhook_deliveries SET status = $3, next_attempt_at = NULL, last_error = $4, completed_at = now(), updated_at = now()
          WHERE endpoint_id = $1 AND status = ANY($2) AND (lease_until IS NULL OR lease_until < now())
          RETURNING delivery_id`,
        [endpointId, deliveryMachine.allowedFrom(event), deliveryMachine.targetOf(event), reason],
      ),
    );
    return rows.length;
  }

  /**
   * The endpoint answered again: every delivery held behind its failure streak is due now, oldest first.
   * What the caller enqueues after its commit (what it misses, the reconciler enqueues).
   */
  async releaseHeld(executor: Executor, endpointId: string): Promise<DueDelivery[]> {
    const rows = rowsOf<DueRow>(
      await executor.query(
        `UPDATE webhook_deliveries SET next_attempt_at = now(), updated_at = now()
          WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at IS NULL
          RETURNING delivery_id, attempt_count, next_attempt_at`,
        [endpointId],
      ),
    );
    return rows.map(dueOf);
  }

  /**
   * Held deliveries nothing else would release, made due (the reconciler's pass, one replica at a time):
   * - all those of an endpoint no longer failing (its streak ended between an intake's read and its
   *   commit, or the process releasing them died);
   * - all those of an endpoint no longer enabled: an intake that read it enabled and failing committed
   *   its held deliveries after the delete or disable had settled the endpoint's pending ones. Their claim
   *   settles each at once (cancelled, or failed for a disabled endpoint, delivery-processor.ts), where a
   *   probe a pass would have drained them one every few seconds;
   * - of a failing endpoint with no delivery scheduled ahead of its held ones any more (its probes spent
   *   their schedules), the oldest one: it becomes the endpoint's next probe, so a held delivery always has
   *   one ahead of it. (A delivery scheduled after the oldest held one, a merchant's retry of a younger
   *   failed one, is not looked for: at worst the endpoint gets one probe more, once.)
   *
   * The pass runs every few seconds on every stack, so it reads only the endpoints that hold deliveries,
   * found by a skip scan of the held index (`holding`: one index descent per such endpoint, however many
   * endpoints there are and however many deliveries each holds), each endpoint then read by its key.
   * While an endpoint fails, its backlog of held deliveries grows, usually past the statistics (autovacuum
   * analyzes after a tenth of the table changed), which then say the held index is empty. So the statement
   * leaves the planner no way to start from the held deliveries (docs/performance.md §29, §48, §49):
   * - each endpoint's held deliveries are read in a subquery per endpoint (`ARRAY(...)`, which Postgres never
   *   merges into a join): an index probe for an endpoint whose deliveries all go, one entry for a failing
   *   one, whose oldest is the first in the held index's order (`created_at`; deliveries of one intake
   *   share it, and any of them is the oldest);
   * - the update finds its rows by key, "still held" written so that no partial index's predicate is implied;
   * - "a probe is scheduled ahead" reads the endpoint's pending deliveries in the endpoint index no younger
   *   than its oldest held one: the probe, or the intake chunk the oldest held one came with (they share its
   *   `created_at`). Written as `NOT EXISTS` over all its scheduled deliveries, Postgres joined it against
   *   every scheduled delivery of the stack, once per failing endpoint (1M rows at 50 failing endpoints and
   *   20,000 retries scheduled elsewhere), or read the endpoint's whole held backlog. "Pending" is written as
   *   a list with a status no delivery can have ('', which the table's CHECK refuses): the endpoint index
   *   still takes each entry as an equality, so the `created_at` bound ends its scan, and the list implies no
   *   partial index's predicate (the due index, believed empty, would be read whole for each endpoint; a
   *   range on status instead would not end the scan at the bound, and read the whole backlog when no probe
   *   is ahead);
   * - the reconciler plans its pass without bitmap scans and without JIT (RECONCILER_PASS_SETTINGS).
   * Driven from the held deliveries, as the planner chose under such statistics, a pass read the whole backlog
   * three times, or compared every held delivery with every other one: 0.3 s a pass at a few thousand held in
   * the bench. Driven from every endpoint, as until §49, it probed the held index once per endpoint of
   * the stack, held or not.
   */
  async releaseStranded(executor: Executor): Promise<number> {
    const rows = rowsOf<Pick<DeliveryRow, 'delivery_id'>>(
      await executor.query(
        `WITH RECURSIVE holding AS (
           SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                    WHERE d.status = 'pending' AND d.next_attempt_at IS NULL
                    ORDER BY d.endpoint_id LIMIT 1) AS endpoint_id
           UNION ALL
           SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                    WHERE d.status = 'pending' AND d.next_attempt_at IS NULL AND d.endpoint_id > h.endpoint_id
                    ORDER BY d.endpoint_id LIMIT 1)
             FROM holding h
            WHERE h.endpoint_id IS NOT NULL),
         holders AS (
           SELECT h.endpoint_id,
                  (SELECT p.failing_since IS NULL OR p.status <> 'ENABLED'
                     FROM webhook_endpoints p WHERE p.endpoint_id = h.endpoint_id) AS releases_all
             FROM holding h
            WHERE h.endpoint_id IS NOT NULL),
         answering AS (
           SELECT unnest(ARRAY(
                    SELECT d.delivery_id FROM webhook_deliveries d
                     WHERE d.endpoint_id = e.endpoint_id AND d.status = 'pending'
                       AND d.next_attempt_at IS NULL
                     ORDER BY d.created_at)) AS delivery_id
             FROM holders e
            WHERE e.releases_all),
         probes AS (
           SELECT oldest.delivery_id
             FROM holders e
            CROSS JOIN LATERAL (
                  SELECT d.delivery_id, d.created_at FROM webhook_deliveries d
                   WHERE d.endpoint_id = e.endpoint_id AND d.status = 'pending' AND d.next_attempt_at IS NULL
                   ORDER BY d.created_at LIMIT 1) oldest
            WHERE NOT e.releases_all
              AND (SELECT 1 FROM webhook_deliveries s
                    WHERE s.endpoint_id = e.endpoint_id AND s.status IN ('pending', '')
                      AND s.created_at <= oldest.created_at AND s.next_attempt_at IS NOT NULL
                    LIMIT 1) IS NULL)
         UPDATE webhook_deliveries SET next_attempt_at = now(), updated_at = now()
          WHERE delivery_id = ANY(ARRAY(SELECT delivery_id FROM answering UNION ALL SELECT delivery_id FROM probes))
            AND ${STILL_PENDING} AND next_attempt_at IS NULL
          RETURNING delivery_id`,
      ),
    );
    return rows.length;
  }

  /** RETRY one delivery visible to `accountId` (null: operator); null when its status does not allow it. */
  async retry(executor: Executor, deliveryId: string, accountId: string | null): Promise<DueDelivery | null> {
    const [row] = rowsOf<DueRow>(
      await executor.query(
        `UPDATE webhook_deliveries SET status = 'pending', trigger = 'manual', next_attempt_at = now(),
                completed_at = NULL, updated_at = now()
          WHERE delivery_id = $1 AND status = ANY($2) AND ($3::text IS NULL OR account_id = $3)
          RETURNING delivery_id, attempt_count, next_attempt_at`,
        [deliveryId, deliveryMachine.allowedFrom('RETRY'), accountId],
      ),
    );
    return row ? dueOf(row) : null;
  }

  /** RETRY every failed delivery of an endpoint created at or after `since`. */
  async replayFailed(executor: Executor, endpointId: string, since: Date): Promise<DueDelivery[]> {
    const rows = rowsOf<DueRow>(
      await executor.query(
        `UPDATE webhook_deliveries SET status = 'pending', trigger = 'manual', next_attempt_at = now(),
                completed_at = NULL, updated_at = now()
          WHERE endpoint_id = $1 AND status = 'failed' AND created_at >= $2
          RETURNING delivery_id, attempt_count, next_attempt_at`,
        [endpointId, since],
      ),
    );
    return rows.map(dueOf);
  }

  /** One delivery visible to `accountId` (null: operator), with its endpoint's URL while the endpoint exists. */
  async findVisible(
    executor: Executor,
    deliveryId: string,
    accountId: string | null,
  ): Promise<VisibleDelivery | null> {
    const [row] = await executor.query(
      `SELECT d.*, e.event_type, e.account_id AS event_account_id, p.url AS endpoint_url
         FROM webhook_deliveries d
         JOIN webhook_events e ON e.event_id = d.event_id
         LEFT JOIN webhook_endpoints p ON p.endpoint_id = d.endpoint_id AND p.status <> 'DELETED'
        WHERE d.delivery_id = $1 AND ($2::text IS NULL OR d.account_id = $2)`,
      [deliveryId, accountId],
    );
    if (!row) return null;
    const visible = row as DeliveryWithEventRow & { endpoint_url: string | null };
    return { ...toDeliveryWithEvent(visible), endpointUrl: visible.endpoint_url };
  }

  /**
   * The status of a delivery's endpoint, its row locked for the rest of the transaction, so a retry or
   * replay cannot race the endpoint being disabled. Null when the endpoint was deleted.
   */
  async lockEndpointStatus(executor: Executor, endpointId: string): Promise<EndpointStatus | null> {
    const [row] = await executor.query(
      `SELECT status FROM webhook_endpoints WHERE endpoint_id = $1 AND status <> 'DELETED' FOR UPDATE`,
      [endpointId],
    );
    return row ? (row as Pick<EndpointRow, 'status'>).status : null;
  }

  async list(
    executor: Executor,
    filters: DeliveryFilters,
    limit: number,
    offset: number,
  ): Promise<{ deliveries: DeliveryWithEvent[]; total: number }> {
    const where = `($1::text IS NULL OR d.account_id = $1) AND ($2::text IS NULL OR d.status = $2)
      AND ($3::text IS NULL OR d.event_name = $3) AND ($4::text IS NULL OR d.endpoint_id = $4)
      AND ($5::timestamptz IS NULL OR d.created_at >= $5) AND ($6::timestamptz IS NULL OR d.created_at < $6)`;
    const params = [
      filters.accountId,
      filters.status ?? null,
      filters.eventName ?? null,
      filters.endpointId ?? null,
      filters.createdFrom ?? null,
      filters.createdTo ?? null,
    ];
    const [{ total }] = await executor.query(
      `SELECT count(*)::int AS total FROM webhook_deliveries d WHERE ${where}`,
      params,
    );
    const rows: DeliveryWithEventRow[] = await executor.query(
      `${WITH_EVENT} WHERE ${where} ORDER BY d.created_at DESC, d.delivery_id DESC LIMIT $7 OFFSET $8`,
      [...params, limit, offset],
    );
    return { deliveries: rows.map(toDeliveryWithEvent), total: total as number };
  }

  async attemptsOf(executor: Executor, deliveryId: string): Promise<Attempt[]> {
    const rows: AttemptRow[] = await executor.query(
      'SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_number',
      [deliveryId],
    );
    return rows.map(toAttempt);
  }

  /** The attempts of one event across the deliveries visible to `accountId` (null: operator). */
  async eventAttempts(
    executor: Executor,
    eventId: string,
    accountId: string | null,
    limit: number,
    offset: number,
  ): Promise<{ attempts: Attempt[]; total: number }> {
    // By the event's deliveries, then each one's attempts by their key: attempts have no index of their own on
    // the event (migration 1810000000000).
    const where = `d.event_id = $1 AND ($2::text IS NULL OR d.account_id = $2)`;
    const from = 'webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.delivery_id';
    const [{ total }] = await executor.query(`SELECT count(*)::int AS total FROM ${from} WHERE ${where}`, [
      eventId,
      accountId,
    ]);
    const rows: AttemptRow[] = await executor.query(
      `SELECT a.* FROM ${from} WHERE ${where}
        ORDER BY a.attempted_at, a.delivery_id, a.attempt_number LIMIT $3 OFFSET $4`,
      [eventId, accountId, limit, offset],
    );
    return { attempts: rows.map(toAttempt), total: total as number };
  }

  /**
   * Pending deliveries that are due and that no worker is sending: what Redis must hold a job for.
   * Oldest first, a page at a time after `after`.
   */
  async dueWithoutLease(
    executor: Executor,
    limit: number,
    after?: Pick<DueDelivery, 'deliveryId' | 'dueAt'>,
  ): Promise<DueDelivery[]> {
    const rows: DueRow[] = await executor.query(
      `SELECT delivery_id, attempt_count, next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
          AND ($2::timestamptz IS NULL OR (next_attempt_at, delivery_id) > ($2, $3))
        ORDER BY next_attempt_at, delivery_id LIMIT $1`,
      [limit, after?.dueAt ?? null, after?.deliveryId ?? null],
    );
    return rows.map(dueOf);
  }

  /** Cheap enough for every scrape: the partial index covers exactly the pending rows. */
  async countPending(executor: Executor): Promise<number> {
    const [row] = await executor.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return row.n as number;
  }

  async countByStatus(executor: Executor): Promise<Record<DeliveryStatus, number>> {
    const rows: { status: DeliveryStatus; n: number }[] = await executor.query(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status',
    );
    const counts: Record<DeliveryStatus, number> = { pending: 0, succeeded: 0, failed: 0, cancelled: 0 };
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }
}

/** What `claim` reads in one round trip. */
type ClaimedRow = DeliveryRow & {
  body: string;
  event_created_at: Date;
  endpoint: EndpointRow;
  secrets: string[];
};

function dueOf(row: DueRow): DueDelivery {
  return { deliveryId: row.delivery_id, attempt: row.attempt_count + 1, dueAt: row.next_attempt_at as Date };
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    deliveryId: row.delivery_id,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    accountId: row.account_id,
    eventName: row.event_name,
    status: row.status,
    trigger: row.trigger,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    leaseUntil: row.lease_until,
    lastAttemptAt: row.last_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    completedAt: row.completed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDeliveryWithEvent(row: DeliveryWithEventRow): DeliveryWithEvent {
  return { ...toDelivery(row), eventType: row.event_type, eventAccountId: row.event_account_id };
}

function toAttempt(row: AttemptRow): Attempt {
  return {
    deliveryId: row.delivery_id,
    attemptNumber: row.attempt_number,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    trigger: row.trigger,
    url: row.url,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    error: row.error,
    latencyMs: row.latency_ms,
    responseExcerpt: row.response_excerpt,
    succeeded: row.succeeded,
  };
}
