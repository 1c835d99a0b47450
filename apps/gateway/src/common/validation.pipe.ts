import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { describeErrors } from '@paygrid/contracts';
import { envelopeA } from '@paygrid/platform';

/**
 * Validates every body, path and query DTO (class-validator) and refuses unknown fields. Failures
 * answer envelope A `invalid_request_error` whose message names each broken field's path and rule,
 * e.g. `page_size must not be greater than 100`, worded exactly as the services word theirs
 * (describeErrors in libs/contracts). Messages never quote the offending value.
 *
 * Before any rule, a NUL character anywhere in a string is refused: Postgres cannot store or compare
 * one, so it would otherwise surface as a 500 from whichever service received it.
 */
class GatewayValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const path = nulPath(value, '');
    if (path !== undefined) {
      throw envelopeA('invalid_request_error', 'invalid_request_error', `${path || metadata.type}: must not contain NUL characters`);
    }
    return super.transform(value, metadata);
  }
}

/** The path of the first string holding U+0000, or undefined. */
function nulPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > 64 || typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(item, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function createValidationPipe(): ValidationPipe {
  return new GatewayValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Values are kept only so a missing field reads "is required"; no message quotes them.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const problems = describeErrors(errors);
      return envelopeA('invalid_request_error', 'invalid_request_error', problems.slice(0, 5).join('; ') || 'request is invalid');
    },
  });
}
