import { Client } from 'pg';
import { forgetPreparedOnResultChange, MAX_PREPARED_PER_CONNECTION, preparedQuery } from './prepared-statements';

describe('preparedQuery', () => {
  // Never connected: naming is bookkeeping on the client object.
  const newClient = () => new Client();

  it('names a parameterised text once per connection and reuses the name', () => {
    const client = newClient();
    const first = preparedQuery(client, 'SELECT $1::int', [1]);
    const again = preparedQuery(client, 'SELECT $1::int', [2]);
    const other = preparedQuery(client, 'SELECT $1::text', ['a']);
    expect(first.name).toBeDefined();
    expect(again).toEqual({ name: first.name, text: 'SELECT $1::int', values: [2] });
    expect(other.name).not.toBe(first.name);
    expect(preparedQuery(newClient(), 'SELECT $1::text', ['a']).name).toBeDefined();
  });

  it('leaves a statement without parameters unnamed (simple protocol)', () => {
    expect(preparedQuery(newClient(), 'BEGIN', [])).toEqual({ text: 'BEGIN', values: [] });
  });

  it('stops naming new texts at the cap and keeps the names it gave', () => {
    const client = newClient();
    for (let index = 0; index < MAX_PREPARED_PER_CONNECTION; index += 1)
      expect(preparedQuery(client, `SELECT $1::int + ${index}`, [1]).name).toBeDefined();
    expect(preparedQuery(client, 'SELECT $1::int + -1', [1]).name).toBeUndefined();
    expect(preparedQuery(client, 'SELECT $1::int + 0', [1]).name).toBeDefined();
  });

  it('forgets every name after a result-type change, and never hands out an old name again', () => {
    const client = newClient();
    const before = preparedQuery(client, 'INSERT INTO t VALUES ($1) RETURNING *', [1]).name;
    forgetPreparedOnResultChange(client, { code: '23505', message: 'duplicate key value' });
    expect(preparedQuery(client, 'INSERT INTO t VALUES ($1) RETURNING *', [1]).name).toBe(before);
    forgetPreparedOnResultChange(client, { code: '0A000', message: 'cached plan must not change result type' });
    const after = preparedQuery(client, 'INSERT INTO t VALUES ($1) RETURNING *', [1]).name;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});
