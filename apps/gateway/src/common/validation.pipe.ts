import { ValidationPipe } from '@nestjs/common';
import { describeErrors } from '@paygrid/contracts';
import { envelopeA } from '@paygrid/platform';

/**
 * Validates every body, path and query DTO (class-validator) and refuses unknown fields. Failures
 * answer envelope A `invalid_request_error` whose message names each broken field's path and rule,
 * e.g. `page_size must not be greater than 100`, worded exactly as the services word theirs
 * (describeErrors in libs/contracts). Messages never quote the offending value.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
