import { SANDBOX_SEED_DEFAULTS } from '@paygrid/contracts';

/**
 * Example requests and answers shown in the API reference. A unit test validates each one against the
 * schema of the operation that shows it, so an example cannot drift from what the API takes and says.
 */
const MASTER = SANDBOX_SEED_DEFAULTS.master;
const SUB = SANDBOX_SEED_DEFAULTS.sub1;
const CREATED = '2026-03-01T12:00:00.000Z';
const INTENT_ID = 'pi_01JNFQ5S4W8YB9V2K3M4N5P6QR';
const ATTEMPT_ID = 'att_01JNFQ5T0A1B2C3D4E5F6G7H8J';

const SETTLED_ATTEMPT = {
  attempt_id: ATTEMPT_ID,
  payment_intent_id: INTENT_ID,
  amount: '25.00',
  currency: 'USD',
  captured_amount: '25.00',
  refunded_amount: '0.00',
  attempt_status: 'SETTLED',
  create_time: CREATED,
  update_time: CREATED,
  complete_time: CREATED,
  cancellation_reason: '',
  auth_code: '831000',
  arn: '74912345678901234567890',
  rrn: '406112345678',
  advice_code: '',
  authentication_data: { avs_result: 'U', cvv_result: 'M', three_ds: null },
  payment_method: {
    type: 'card',
    card: {
      card_name: 'Grace Hopper',
      card_number: '424242******4242',
      brand: 'VISA',
      bin: '424242',
      last4: '4242',
      expiry_month: '12',
      expiry_year: '2030',
      billing: {},
      auto_capture: true,
    },
  },
  failure_code: '',
  failure_message: '',
};

/** The same card, authorised and waiting for capture (auto_capture false). */
const AUTHORIZED_ATTEMPT = {
  ...SETTLED_ATTEMPT,
  attempt_status: 'AUTHORIZED',
  captured_amount: '0.00',
  complete_time: '',
  payment_method: { type: 'card', card: { ...SETTLED_ATTEMPT.payment_method.card, auto_capture: false } },
};

export const EXAMPLES = {
  issuedToken: { auth_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlbnRpdHlfaWQiOiI1YTBkMGIwYyJ9.c2lnbmF0dXJl', expired_at: 1772368200 },

  echo: {
    account_id: SUB.accountId,
    caller_account_id: MASTER.accountId,
    client_id: MASTER.clientId,
    received_at: CREATED,
  },

  createSubAccount: {
    business_type: 'ACQUIRING',
    entity_type: 'COMPANY',
    nickname: 'Shop One',
    company_info: {
      legal_business_name: 'Shop One Pte Ltd',
      legal_business_name_english: 'Shop One Pte Ltd',
      country_of_incorporation: 'SG',
      company_type: 'LIMITED_COMPANY',
      phone_number: '6561234567',
      email_address: 'finance@shop-one.example',
      company_registration_number: '201912345K',
    },
    company_address: { street_address: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG' },
  },

  createdSubAccount: {
    account_id: '0b9e3f52-4c1d-4a7e-9a51-3d2f8f1c6e10',
    short_reference_id: 'P000000042',
    status: 'PROCESSING',
    business_type: 'ACQUIRING',
    entity_type: 'COMPANY',
    nickname: 'Shop One',
  },

  additionalDocuments: [{ profile_key: 'proof_of_address', profile_name: 'Proof of address', profile_option: 1 }],

  createIntent: {
    amount: '25.00',
    currency: 'USD',
    merchant_order_id: 'order-1001',
    description: 'Order 1001',
    return_url: 'https://shop.example/return',
    payment_method: {
      card: {
        card_name: 'Grace Hopper',
        card_number: '4242424242424242',
        expiry_month: '12',
        expiry_year: '2030',
        cvc: '123',
        auto_capture: false,
      },
    },
    metadata: { channel: 'web' },
  },

  paymentIntent: {
    payment_intent_id: INTENT_ID,
    amount: '25.00',
    currency: 'USD',
    intent_status: 'REQUIRES_CAPTURE',
    description: 'Order 1001',
    available_payment_method_types: ['card'],
    captured_amount: '0.00',
    customer_id: '',
    cancellation_reason: '',
    client_secret: `${INTENT_ID}_secret_5d1a0c2b7e9f4a3c8b6d`,
    merchant_order_id: 'order-1001',
    metadata: { channel: 'web' },
    next_action: null,
    return_url: 'https://shop.example/return',
    create_time: CREATED,
    complete_time: '',
    update_time: CREATED,
    latest_payment_attempt: AUTHORIZED_ATTEMPT,
  },

  confirmIntent: {
    payment_method: {
      card: { card_number: '4000000000003220', expiry_month: '12', expiry_year: '2030', cvc: '123' },
    },
    return_url: 'https://shop.example/return',
  },

  captureIntent: { amount_to_capture: '20.00' },
  cancelIntent: { cancellation_reason: 'requested_by_customer' },

  paymentAttempt: SETTLED_ATTEMPT,

  createRefund: { payment_intent_id: INTENT_ID, amount: '5.00', reason: 'returned item' },

  refund: {
    payment_refund_id: 're_01JNFQ9Z2X3C4V5B6N7M8K9J0H',
    payment_intent_id: INTENT_ID,
    payment_attempt_id: ATTEMPT_ID,
    amount: '5.00',
    currency: 'USD',
    refund_status: 'INITIATED',
    reason: 'returned item',
    metadata: {},
    failure_code: '',
    create_time: CREATED,
    update_time: CREATED,
    complete_time: '',
  },

  createWebhookEndpoint: {
    url: 'https://shop.example/webhooks/paygrid',
    description: 'Payments',
    event_names: ['acquiring.payment_intent.*', 'acquiring.refund.succeeded'],
  },

  createdWebhookEndpoint: {
    endpoint_id: 'whep_01JNFQB1C2D3E4F5G6H7J8K9M0',
    account_id: MASTER.accountId,
    url: 'https://shop.example/webhooks/paygrid',
    description: 'Payments',
    event_names: ['acquiring.payment_intent.*', 'acquiring.refund.succeeded'],
    include_sub_accounts: false,
    status: 'ENABLED',
    disabled_reason: null,
    disabled_time: null,
    failing_since: null,
    create_time: CREATED,
    update_time: CREATED,
    secret: 'whsec_c2VjcmV0LXNob3duLW9uY2UtMDEyMzQ1Njc4OQ==',
  },
} as const;
