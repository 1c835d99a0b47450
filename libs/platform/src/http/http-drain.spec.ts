import Fastify, { FastifyInstance } from 'fastify';
import { HttpDrain } from './http-drain';

/** Draining: requests in flight finish, new ones get the envelope's 503 with Retry-After. */
describe('HttpDrain', () => {
  let fastify: FastifyInstance;
  let drain: HttpDrain;
  let release: () => void;
  let entered: Promise<void>;

  beforeEach(async () => {
    drain = new HttpDrain();
    fastify = Fastify();
    drain.install(fastify);
    let signalEntered!: () => void;
    entered = new Promise((resolve) => (signalEntered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    fastify.get('/slow', async () => {
      signalEntered();
      await held;
      return { done: true };
    });
    fastify.get('/fast', async () => ({ done: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
  });

  afterEach(() => fastify.close());

  const url = (path: string) => {
    const address = fastify.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${path}`;
  };

  it('lets a request in flight finish and answers new ones 503 api_error with Retry-After', async () => {
    const slow = fetch(url('/slow'));
    await entered;
    expect(drain.inFlight).toBe(1);
    drain.begin();
    const idle = drain.idle(10_000);

    const refused = await fetch(url('/fast'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toEqual({
      type: 'api_error',
      code: 'api_error',
      message: 'The service is restarting; retry shortly with the same idempotency key',
    });

    release();
    expect(await (await slow).json()).toEqual({ done: true });
    await expect(idle).resolves.toBe(true);
    expect(drain.inFlight).toBe(0);
  });

  it('says so when requests are still in flight at the end of the drain period', async () => {
    const slow = fetch(url('/slow'));
    await entered;
    drain.begin();
    await expect(drain.idle(20)).resolves.toBe(false);
    release();
    await slow;
  });

  it('is idle at once with nothing in flight', async () => {
    drain.begin();
    await expect(drain.idle(1)).resolves.toBe(true);
  });
});
