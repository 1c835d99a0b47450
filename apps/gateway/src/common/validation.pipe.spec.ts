import { IsString } from 'class-validator';
import { ApiError } from '@paygrid/platform';
import { createValidationPipe } from './validation.pipe';

class Query {
  @IsString()
  name!: string;
}

describe('gateway validation pipe', () => {
  const pipe = createValidationPipe();

  it('refuses a NUL character anywhere in a query or body, naming where, before any rule', async () => {
    const refusal = await pipe
      .transform({ name: 'ok', nested: { list: ['fine', 'bad\u0000'] } }, { type: 'body', metatype: Query })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(400);
    expect((refusal as ApiError).body.message).toBe('nested.list[1]: must not contain NUL characters');
  });

  it('validates clean input as before', async () => {
    await expect(pipe.transform({ name: 'ok' }, { type: 'query', metatype: Query })).resolves.toMatchObject({ name: 'ok' });
  });
});
