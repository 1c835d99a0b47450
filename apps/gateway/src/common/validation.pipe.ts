import { ValidationError, ValidationPipe } from '@nestjs/common';
import { envelopeA } from '@paygrid/platform';

/**
 * Validates every body, path and query DTO (class-validator) and refuses unknown fields. The first
 * failure answers envelope A `invalid_request_error` whose message names the field path and the rule,
 * e.g. `page_size: must not be greater than 100`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const [path, rule] = firstFailure(errors) ?? ['body', 'is invalid'];
      return envelopeA('invalid_request_error', 'invalid_request_error', `${path}: ${rule}`);
    },
  });
}

function firstFailure(errors: ValidationError[], parent = ''): [string, string] | undefined {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) return [path, stripProperty(messages[0], error.property)];
    const nested = firstFailure(error.children ?? [], path);
    if (nested) return nested;
  }
  return undefined;
}

/** class-validator writes "page_size must be ..."; the path is already in front, so keep the rule. */
function stripProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
