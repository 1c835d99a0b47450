import { fork } from 'node:child_process';
import { Pool } from 'undici';
import { ReceiverThread } from '../acquiring/receiver-thread';

/**
 * What one webhook arrival costs the create bench's process: its receiver thread reading, stamping and
 * answering the POST, and its main thread counting the stamp (docs/performance.md §38). The bench shares two
 * cores with the stack it measures, so every microsecond here is taken from the stack's creates: the c16 run
 * delivers ten webhooks a create. The POSTs come from a child process (16 in flight on keep-alive
 * connections, a body of a create's event's size), so this process's CPU is the receiver's alone.
 *
 *   npm run -s build && node -r ./deploy/local/register-paths.js dist/bench/micro/webhook-receiver.js
 *
 * A microbenchmark, not a target: it prints µs of this process's CPU per arrival, three rounds.
 */
const WARM_UP_POSTS = 3_000;
const MEASURED_POSTS = 20_000;
const IN_FLIGHT = 16;
const ROUNDS = 3;

async function microsecondsPerArrival(): Promise<number> {
  const receiver = await ReceiverThread.start(0);
  try {
    await post(receiver.url('/ok'), WARM_UP_POSTS);
    await receiver.settle();
    const before = process.cpuUsage();
    const counted = receiver.arrivals().length;
    await post(receiver.url('/ok'), MEASURED_POSTS);
    await receiver.settle();
    const used = process.cpuUsage(before);
    const arrivals = receiver.arrivals().length - counted;
    if (arrivals !== MEASURED_POSTS)
      throw new Error(`${arrivals} arrivals counted of ${MEASURED_POSTS} POSTs`);
    return (used.user + used.system) / arrivals;
  } finally {
    await receiver.close();
  }
}

/** `count` POSTs to `url` from a child process; resolves when it has had every answer. */
function post(url: string, count: number): Promise<void> {
  const sender = fork(__filename, ['send', url, String(count)]);
  return new Promise((resolve, reject) => {
    sender.once('error', reject);
    sender.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sender exited with ${code}`))));
  });
}

/** The child's side: what the dispatcher sends, as fast as the receiver answers. */
async function send(url: string, count: number): Promise<void> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: IN_FLIGHT });
  const body = JSON.stringify({
    event_id: 'evt_micro',
    event_name: 'acquiring.payment_intent.created',
    create_time: new Date().toISOString(),
    data: { object: 'x'.repeat(1_200) },
  });
  let sent = 0;
  const sender = async () => {
    while (sent < count) {
      sent += 1;
      const response = await pool.request({
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': `evt_${sent}`,
          'webhook-timestamp': '1700000000',
        },
        body,
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`the receiver answered ${response.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  await pool.close();
}

async function main(): Promise<void> {
  for (let round = 1; round <= ROUNDS; round += 1) {
    const microseconds = await microsecondsPerArrival();
    process.stdout.write(
      `round ${round}: ${microseconds.toFixed(1)} µs of the bench process's CPU per arrival\n`,
    );
  }
}

if (require.main === module) {
  const [mode, url, count] = process.argv.slice(2);
  const run = mode === 'send' ? send(url, Number(count)) : main();
  run.then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(
        `webhook-receiver micro failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
