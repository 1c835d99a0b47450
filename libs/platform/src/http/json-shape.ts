/**
 * Limits on a JSON body's shape, checked on the raw text before it is parsed, so a hostile body costs one
 * linear pass and nothing else: no parse, no recursive validation (class-transformer and class-validator
 * recurse per level: a 50,000-deep body overflowed their stack and answered 500, inviting a retry), no
 * hashing of a million keys. The limits sit far above anything the API accepts (its deepest body nests
 * 4 levels, its largest has a few dozen members).
 */
export interface JsonShapeLimits {
  /** Objects and arrays nested inside each other; the top-level object is depth 1. */
  maxDepth: number;
  /** Object members in the whole body. */
  maxKeys: number;
}

export const JSON_SHAPE_LIMITS: JsonShapeLimits = { maxDepth: 32, maxKeys: 2_000 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** What is wrong with the body's shape, or undefined when it is within the limits (or not JSON at all). */
export function jsonShapeProblem(
  text: string,
  limits: JsonShapeLimits = JSON_SHAPE_LIMITS,
): string | undefined {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > limits.maxDepth) return `the request body nests deeper than ${limits.maxDepth} levels`;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth -= 1;
    else if (code === COLON) {
      // Outside strings, a colon only ever follows an object member's name.
      keys += 1;
      if (keys > limits.maxKeys) return `the request body has more than ${limits.maxKeys} object members`;
    }
  }
  return undefined;
}
