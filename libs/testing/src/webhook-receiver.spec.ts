import { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { bodyChunks } from './webhook-receiver';

/** A stand-in for a request: a stream with node:http's `complete` flag, set once the whole body has arrived. */
function requestStream(): PassThrough & { complete: boolean } {
  const stream = new PassThrough() as PassThrough & { complete: boolean };
  stream.complete = false;
  stream.on('end', () => (stream.complete = true));
  return stream;
}

describe("the webhook receiver's body read", () => {
  it('resolves with every chunk once the body has ended', async () => {
    const request = requestStream();
    const read = bodyChunks(request as unknown as IncomingMessage);
    request.write('{"event_id":');
    request.end('"evt_1"}');
    expect(Buffer.concat(await read).toString('utf8')).toBe('{"event_id":"evt_1"}');
  });

  it('rejects a request closed before the end of its body, and one that fails', async () => {
    const closed = requestStream();
    const readClosed = bodyChunks(closed as unknown as IncomingMessage);
    closed.write('{"event_');
    closed.destroy();
    await expect(readClosed).rejects.toThrow('the request closed before the end of its body');

    const failed = requestStream();
    const readFailed = bodyChunks(failed as unknown as IncomingMessage);
    failed.destroy(new Error('ECONNRESET'));
    await expect(readFailed).rejects.toThrow('ECONNRESET');
  });
});
