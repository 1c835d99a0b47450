import { DataSource } from 'typeorm';
import { Statement } from '../database/data-source';
import { OUTBOX_WAKE, OutboxWakeOwed } from './outbox-writer';

/**
 * The relay's wake-up for a deferred-wake write (a staged command's first record), kept in this process
 * instead of sent: the command's final commit, a few milliseconds later, sends a plain wake-up that covers
 * both (the relay reads every committed row it finds), so in the common case the first record costs no
 * notification at all: no statement of its own, no wake-up of the LISTEN backend or of the relay. Should no
 * plain wake-up leave this process within `afterMs` (the command failed, or is slow), the timer sends one,
 * which reaches whichever relay holds the lock, in this process or another: the bound on the rows' wait is
 * what a `deferred` notification gave (OUTBOX_DEFERRED_WAKE_MS).
 *
 * Why a plain wake-up sent after the timer was armed covers its rows: the timer is armed once the deferred
 * write has committed, and the wake-up is written after its own COMMIT, later; the relay it wakes reads every
 * row committed before its batch began.
 */
export const OUTBOX_DEFERRED_WAKE_MS = 50;

let afterMs = OUTBOX_DEFERRED_WAKE_MS;
const pending = new WeakMap<DataSource, NodeJS.Timeout>();

/** The delay before a deferred write's own wake-up (tests, and tuning). */
export function configureDeferredWakes(options: { afterMs: number }): void {
  afterMs = options.afterMs;
}

/**
 * What a committer owing `owed` (outboxWakeOwed) writes right behind its COMMIT: OUTBOX_WAKE when it owes a
 * plain wake-up, which also covers every deferred write of this process armed so far (their timers are
 * cleared); nothing otherwise. Call it in the tick the wake-up is written.
 */
export function wakeToWriteWithCommit(
  dataSource: DataSource,
  owed: OutboxWakeOwed | undefined,
): Statement | undefined {
  if (owed !== 'now') return undefined;
  const timer = pending.get(dataSource);
  if (timer) {
    clearTimeout(timer);
    pending.delete(dataSource);
  }
  return OUTBOX_WAKE;
}

/** Once the write committed: a deferred wake-up is kept in the process (armed) until a plain one covers it. */
export function wakeAfterCommit(dataSource: DataSource, owed: OutboxWakeOwed | undefined): void {
  if (owed !== 'deferred') return;
  // A timer already armed fires sooner, and so covers this write too.
  if (pending.has(dataSource)) return;
  const timer = setTimeout(() => {
    pending.delete(dataSource);
    // A failed wake-up delays the rows to the relay's poll; nothing is lost.
    dataSource.query(OUTBOX_WAKE.sql, OUTBOX_WAKE.params).catch(() => undefined);
  }, afterMs);
  timer.unref();
  pending.set(dataSource, timer);
}

/** Whether a deferred write's wake-up is still waiting on `dataSource`. */
export function deferredWakePending(dataSource: DataSource): boolean {
  return pending.has(dataSource);
}
