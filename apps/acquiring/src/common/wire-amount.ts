import { amountProblem } from '@paygrid/contracts';
import { parsePositiveAmount } from '@paygrid/money';
import { Errors } from '@paygrid/platform';

/**
 * An amount whose currency is known only once the intent is read (a capture, a refund, an update that
 * keeps the currency): the payload class checked its decimal form, this applies the currency's
 * exponent and the > 0 rule with the same words, naming the field (decisions §5).
 */
export function requireAmount(path: string, value: string, currency: string): bigint {
  const problem = amountProblem(value, currency);
  if (problem !== undefined) throw Errors.invalidRequest(`${path}: ${problem}`);
  return parsePositiveAmount(value, currency);
}
