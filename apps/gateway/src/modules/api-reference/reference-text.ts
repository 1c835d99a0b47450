/**
 * The prose of the API reference: authentication, idempotency, errors and the sandbox. Kept next to
 * the document builders so a change of behaviour and of its documentation land together.
 */
export const REFERENCE_DESCRIPTION = `
Paygrid's API: card acquiring, payouts, connected accounts and card issuing. Every path below is
relative to \`{base_url}/api\`; bodies are JSON (\`Content-Type: application/json\`).

## Authentication
1. \`POST /v1/connect/token\` with headers \`x-client-id\` and \`x-api-key\` (no body) answers
   \`{auth_token, expired_at}\`: an HS256 JWT valid 30 minutes; \`expired_at\` is in Unix seconds.
2. Send it on every other call as \`x-auth-token: Bearer <auth_token>\` (the bare token works too).
3. An expired token answers 401 \`Token expired\` (clients fetch a new token and retry once); a key
   with an IP allow-list answers 401 \`IP not allowed\` from other addresses; a revoked key fails at once.
4. \`x-on-behalf-of: <sub-account uuid>\` lets a master account act for one of its sub-accounts.
5. Payment-intent operations also need \`x-client-id\`, equal to the token's client id.

## Idempotency
Every POST needs \`x-idempotency-key\` (a uuid). The first request with a key runs; its final response
(success or error) is stored for 24 hours and replayed byte for byte, with \`x-idempotent-replayed: true\`.
While the first is still running, a repeat answers 400 \`request_being_processed\` ("The request is
processing, retry with the same body"). The same key on another path answers \`key_mismatch_api\`, from
another account \`key_mismatch_account\`, with another body \`key_mismatch_params\`; a key that is missing,
empty or not a uuid \`invalid_key_format\`. A request refused by validation or authentication stores nothing. An
\`api_error\` (500) is safe to retry with the same key: the retry completes the original operation
instead of repeating it. GET requests accept and ignore the header.

## Errors
Envelope A: \`{"type", "code", "message"}\`. Envelope B (legacy): \`{"code": 400|429, "message"}\`.

| type | HTTP | codes |
|---|---|---|
| invalid_request_error | 400 (404 unknown route, 413 body over 1 MiB) | invalid_request_error (message: field path and rule), resource_not_found, account_not_found, sub_account_not_found, operation_not_available (a spec operation not built yet: not worth retrying) |
| idempotency_error | 400 | request_being_processed, key_mismatch_api, key_mismatch_account, key_mismatch_params, invalid_key_format |
| unauthorized_error | 401 / 403 | unauthorized_error (Token expired, IP not allowed, Invalid auth token, API key revoked), forbidden |
| api_error | 500 | api_error (safe to retry with the same key) |
| envelope B | 400 | "Params JSON error": body not parseable or Content-Type missing |
| envelope B | 429 | "Request is too frequent": sensitive card details and PAN tokens, per card |

Rate limits: 100 requests per second per account, answered with HTTP 429, \`Retry-After\` and envelope A
(\`invalid_request_error\` / \`rate_limited\`); sensitive card details and PAN tokens at most 10 a minute per
card, HTTP 429, \`Retry-After\` and envelope B \`{"code": 429, "message": "Request is too frequent"}\`.
Pagination: \`page_size\` 10–100 (default 10), \`page_number\` from 1 (default 1); lists answer
\`{total_pages, total_items, data}\`. Out-of-range values are a 400, never clamped.

## Sandbox
Seeded accounts (\`npm start\` prints them): master \`pg_sandbox_master\` / \`sk_sandbox_master_0123456789abcdef\`,
sub-accounts \`pg_sandbox_sub1\` and \`pg_sandbox_sub2\`. The test cards are listed under Acquiring.
`;

/** Decisions §6: the sandbox's deterministic card outcomes, shown where the card operations are. */
const SANDBOX_TEST_CARDS = `
Test cards (sandbox; any future expiry, any CVC of the right length):

| Card number | Outcome |
|---|---|
| 4242 4242 4242 4242, 5555 5555 5555 4444 | approved |
| 4000 0000 0000 0002 | declined, \`failure_code\` \`card_declined\` |
| 4000 0000 0000 9995 | declined, \`insufficient_funds\` |
| 4000 0000 0000 0069 | declined, \`expired_card\` |
| 4000 0000 0000 0127 | declined, \`incorrect_cvc\` |
| 4000 0000 0000 3220 | 3-D Secure challenge: intent \`REQUIRES_CUSTOMER_ACTION\`, \`next_action.redirect_to_url\` opens the hosted challenge page, where the shopper's choice approves or fails the attempt |
| 4000 0000 0000 0077 | asynchronous: intent \`PENDING\`, then \`SUCCEEDED\` a few seconds later |
| 4100 0000 0000 0019 | blocked as fraud: attempt and intent \`FAILED\` (terminal) |

A card number that fails the Luhn check or has the wrong length for its brand is a 400 before any processing.
`;

/** The tags of the reference, in the order a merchant meets them. */
export const API_TAGS: { name: string; description: string }[] = [
  { name: 'Authentication', description: 'Exchange an API key for an auth token (30 minutes).' },
  {
    name: 'Accounts',
    description:
      'Connected accounts: a master account and its sub-accounts. A new sub-account is approved about 3 seconds after creation in the sandbox; a nickname or legal name containing `REJECT` is rejected instead.',
  },
  {
    name: 'Acquiring',
    description: `Card payments: PaymentIntents, their attempts, refunds and settlements. Amounts are decimal strings with at most the currency's minor-unit digits. Payment-intent operations need \`x-client-id\` besides the token.\n${SANDBOX_TEST_CARDS}`,
  },
  {
    name: 'Hosted pages',
    description:
      'The checkout and 3-D Secure pages the gateway serves to shoppers (linked from `next_action.redirect_to_url`), and the JSON calls their script makes. No merchant token: the intent\'s `client_secret` authenticates, for 60 minutes.',
  },
  { name: 'Webhooks', description: 'Endpoints that receive the account\'s events, signed, and the record of every delivery.' },
  { name: 'Diagnostics', description: 'Check credentials, on-behalf-of and idempotency without touching money.' },
];
