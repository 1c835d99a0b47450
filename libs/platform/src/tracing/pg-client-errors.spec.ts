import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { Pool } from 'pg';
import { PreparedPgClient } from './pg-tracing';

/**
 * A backend terminated as it started: Postgres's ReadyForQuery and its FATAL arrive in one read. The pool
 * hands the new client over from inside that read, before its new owner can listen for errors, and the
 * FATAL is emitted right after. A stub server on loopback sends exactly that, so the gap is hit every time
 * (a real server hits it only by chance, as the chaos run's terminated connections once did).
 */
function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const authenticationOk = message('R', Buffer.from([0, 0, 0, 0]));
const readyForQuery = message('Z', Buffer.from('I', 'latin1'));
const terminated = message(
  'E',
  Buffer.from('SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0', 'latin1'),
);

describe('a pooled connection terminated as it is handed over', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((socket: Socket) => {
      // Answer the startup message with a session that is ready and, in the same write, terminated.
      socket.once('data', () => socket.end(Buffer.concat([authenticationOk, readyForQuery, terminated])));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('does not throw out of the socket handler: the client is handed over dead and says so', async () => {
    const pool = new Pool({
      host: '127.0.0.1',
      port,
      user: 'paygrid',
      database: 'paygrid',
      Client: PreparedPgClient,
    });
    const poolErrors: Error[] = [];
    pool.on('error', (error) => poolErrors.push(error));
    const client = await pool.connect();
    // Without the client's own listener, the FATAL above would have been an uncaught exception by now.
    await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|terminat/);
    client.release(true);
    await pool.end();
    expect(poolErrors).toEqual([]);
  });
});
