import { getPriority, setPriority } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { isNiceValue } from '@paygrid/local-stack';
import { BareAnswer, BareHttpReceiver, BareRequest } from './bare-http-receiver';

/**
 * The create bench's webhook receiver on a thread of its own. On the bench's main thread it shared an event
 * loop with the load generator's sixteen clients, so a delivery that had reached the socket waited for that
 * loop before it was stamped (POSTs took ~20 ms at p50): the webhook figure measured the bench, not the
 * stack. Here the receiver stamps every arrival on its own loop and sends the stamps over; a merchant's
 * receiver is a server of its own too.
 *
 * The thread sends its stamps in batches, every ARRIVAL_BATCH_MS and whenever it is asked to settle: a
 * message per arrival (ten a create) cost the bench's two threads a structured clone and a wake-up each, CPU
 * taken from the stack it measures (docs/performance.md §38). A stamp is taken on arrival, so a batch delays
 * the count, never the figure. Messages from the thread arrive in the order it sent them, so `settle()` (a
 * round trip through the thread, which first sends what it holds) returns once every arrival before it has
 * been counted here, and once an answer set with `respond` is in force.
 *
 * The thread also runs at the webhook dispatcher's weight (nice -10, BENCH_RECEIVER_NICE to change it): at
 * nice 0 on two saturated cores it waited behind the stack for a core before it could read a delivery, stamp
 * it and answer. That wait was most of the post stage's tail (p99 133–234 ms against 49–119), and the late
 * answers cost the stack itself: the dispatcher recorded its attempts in more, smaller group commits (webhooks
 * commits per create 1.40–1.55 against 1.00–1.15) (docs/performance.md §33). A merchant's server has cores of
 * its own. Linux keeps a nice value per thread, so the value reaches this thread alone, not the clients on
 * the main thread; raising it needs CAP_SYS_NICE, and without it the thread stays at 0 (`nice` says which).
 */
export interface Arrival {
  path: string;
  /** Epoch ms when the request's whole body had arrived at the receiver. */
  at: number;
  /** Epoch ms of the event's `create_time` (NaN when the body has none). */
  createdAt: number;
  /** The event's `event_name` ('' when the body has none). */
  eventName: string;
  /** The delivery's `webhook-id` header: its event's id ('' without one). */
  eventId: string;
}

/** How long the thread holds its stamps before sending them over (a settle sends them at once). */
const ARRIVAL_BATCH_MS = 50;

type ToThread =
  { kind: 'respond'; path: string; answer: BareAnswer } | { kind: 'settle'; id: number } | { kind: 'close' };
type FromThread =
  | { kind: 'listening'; port: number; nice: number }
  | { kind: 'arrivals'; arrivals: Arrival[] }
  | { kind: 'settled'; id: number };

export class ReceiverThread {
  private readonly arrivalsSoFar: Arrival[] = [];
  private readonly pendingSettles = new Map<number, () => void>();
  private nextSettleId = 0;

  private constructor(
    private readonly worker: Worker,
    readonly port: number,
    /** The thread's nice value as it runs: the one asked for, or 0 where it may not be raised. */
    readonly nice: number,
  ) {
    worker.on('message', (message: FromThread) => this.onMessage(message));
  }

  static async start(nice: number = receiverNice()): Promise<ReceiverThread> {
    const worker = new Worker(__filename, { workerData: { nice } satisfies ThreadData });
    const listening = await new Promise<{ port: number; nice: number }>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (message: FromThread) =>
        message.kind === 'listening'
          ? resolve(message)
          : reject(new Error(`receiver thread said ${message.kind} first`)),
      );
    });
    return new ReceiverThread(worker, listening.port, listening.nice);
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Arrivals counted so far (call `settle()` first to include everything the thread has seen). */
  arrivals(path?: string): Arrival[] {
    return path === undefined
      ? [...this.arrivalsSoFar]
      : this.arrivalsSoFar.filter((arrival) => arrival.path === path);
  }

  /** How `path` answers from now on; in force when the returned promise resolves. */
  respond(path: string, answer: BareAnswer): Promise<void> {
    this.send({ kind: 'respond', path, answer });
    return this.settle();
  }

  /** Resolves once every arrival the thread stamped before this call has been counted here. */
  settle(): Promise<void> {
    const id = this.nextSettleId++;
    const settled = new Promise<void>((resolve) => this.pendingSettles.set(id, resolve));
    this.send({ kind: 'settle', id });
    return settled;
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.send({ kind: 'close' });
    await exited;
  }

  private send(message: ToThread): void {
    this.worker.postMessage(message);
  }

  private onMessage(message: FromThread): void {
    if (message.kind === 'arrivals') {
      for (const arrival of message.arrivals) this.arrivalsSoFar.push(arrival);
    } else if (message.kind === 'settled') {
      this.pendingSettles.get(message.id)?.();
      this.pendingSettles.delete(message.id);
    }
  }
}

interface ThreadData {
  nice: number;
}

/** BENCH_RECEIVER_NICE: the receiver thread's nice value, -10 (the dispatcher's) when unset. */
export function receiverNice(raw = process.env.BENCH_RECEIVER_NICE): number {
  const value = (raw ?? '').trim();
  if (value === '') return -10;
  const nice = /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!isNiceValue(nice))
    throw new Error(`BENCH_RECEIVER_NICE must be an integer from -20 to 19, got "${value}"`);
  return nice;
}

/**
 * Sets the calling thread's nice value (on Linux, setpriority on "process" 0 is the calling thread) and
 * returns the value it runs at: unchanged where raising is not permitted.
 */
export function setThisThreadNice(nice: number): number {
  try {
    setPriority(nice);
  } catch (error) {
    // Node reports a refused setpriority as ERR_SYSTEM_ERROR, with the system's code in `info`.
    const code = (error as { info?: { code?: string } }).info?.code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
  }
  return getPriority();
}

/**
 * The thread's side: a bare HTTP receiver (bare-http-receiver.ts) that stamps each arrival and takes its
 * answers from the bench.
 */
async function serveInThisThread(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const nice = setThisThreadNice((workerData as ThreadData).nice);
  let held: Arrival[] = [];
  let sending: NodeJS.Timeout | undefined;
  const sendHeld = () => {
    clearTimeout(sending);
    sending = undefined;
    if (held.length === 0) return;
    port.postMessage({ kind: 'arrivals', arrivals: held } satisfies FromThread);
    held = [];
  };
  const receiver = await BareHttpReceiver.start((request) => {
    held.push(arrivalOf(request));
    sending ??= setTimeout(sendHeld, ARRIVAL_BATCH_MS);
  });
  port.on('message', (message: ToThread) => {
    if (message.kind === 'respond') receiver.respond(message.path, message.answer);
    if (message.kind === 'settle') {
      sendHeld();
      port.postMessage({ kind: 'settled', id: message.id } satisfies FromThread);
    }
    if (message.kind === 'close') {
      clearTimeout(sending);
      void receiver.close().then(() => port.close());
    }
  });
  port.postMessage({ kind: 'listening', port: receiver.port, nice } satisfies FromThread);
}

/** An arrival's stamp; a body that is not an event's JSON is stamped with no event time or name. */
export function arrivalOf(request: BareRequest): Arrival {
  let event: { create_time?: unknown; event_name?: unknown } = {};
  try {
    event = JSON.parse(request.body) ?? {};
  } catch {
    // Not JSON: counted as an arrival all the same.
  }
  return {
    path: request.path,
    at: request.receivedAt,
    createdAt: typeof event.create_time === 'string' ? Date.parse(event.create_time) : NaN,
    eventName: typeof event.event_name === 'string' ? event.event_name : '',
    eventId: request.webhookId,
  };
}

if (!isMainThread) void serveInThisThread();
