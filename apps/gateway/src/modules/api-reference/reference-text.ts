/**
 * The prose of the API reference: authentication, idempotency, errors and the sandbox. Kept next to
 * the builder so a change of behaviour and of its documentation land together.
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
another account \`key_mismatch_account\`, with another body \`key_mismatch_params\`; a key that is not a
uuid \`invalid_key_format\`. A request refused by validation or authentication stores nothing. An
\`api_error\` (500) is safe to retry with the same key: the retry completes the original operation
instead of repeating it. GET requests accept and ignore the header.

## Errors
Envelope A: \`{"type", "code", "message"}\`. Envelope B (legacy): \`{"code": 400|429, "message"}\`.

| type | HTTP | codes |
|---|---|---|
| invalid_request_error | 400 (404 unknown route, 413 body over 1 MiB) | invalid_request_error (message: field path and rule), resource_not_found, account_not_found, sub_account_not_found |
| idempotency_error | 400 | request_being_processed, key_mismatch_api, key_mismatch_account, key_mismatch_params, invalid_key_format |
| unauthorized_error | 401 / 403 | unauthorized_error (Token expired, IP not allowed, Invalid auth token, API key revoked), forbidden |
| api_error | 500 / 501 | api_error (safe to retry with the same key), operation_not_available |
| envelope B | 400 | "Params JSON error": body not parseable or Content-Type missing |

Rate limits: 100 requests per second per account, answered with HTTP 429 and \`Retry-After\`.
Pagination: \`page_size\` 10–100 (default 10), \`page_number\` from 1 (default 1); lists answer
\`{total_pages, total_items, data}\`. Out-of-range values are a 400, never clamped.

## Sandbox
Seeded accounts (\`npm start\` prints them): master \`pg_sandbox_master\` / \`sk_sandbox_master_0123456789abcdef\`,
sub-accounts \`pg_sandbox_sub1\` and \`pg_sandbox_sub2\`. A new sub-account is approved about 3 seconds
after creation; a nickname or legal name containing \`REJECT\` is rejected instead.

Test cards (any future expiry, any CVC of the right length):

| Card number | Outcome |
|---|---|
| 4242 4242 4242 4242, 5555 5555 5555 4444 | approved |
| 4000 0000 0000 0002 | declined, card_declined |
| 4000 0000 0000 9995 | declined, insufficient_funds |
| 4000 0000 0000 0069 | declined, expired_card |
| 4000 0000 0000 0127 | declined, incorrect_cvc |
| 4000 0000 0000 3220 | 3-D Secure challenge on the hosted page |
| 4000 0000 0000 0077 | asynchronous: PENDING, then SUCCEEDED |
| 4100 0000 0000 0019 | blocked as fraud (FAILED) |
`;
