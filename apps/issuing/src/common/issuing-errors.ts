import { RequiredField } from '@paygrid/contracts';
import { ApiError, envelopeA, envelopeB, ErrorMapper } from '@paygrid/platform';
import { AggregateNotFoundError, TransitionRefusedError } from '@paygrid/state-machine';

/**
 * The issuing error catalogue (spec 7.3–7.5), each error once, in the envelope and with the code or message the
 * spec gives it. Not-found answers are the same whether the object is missing or belongs to another account
 * (decisions §1).
 */
const cardError = (code: string, message: string) => envelopeA('card_error', code, message);
const cardholderError = (code: string, message: string, missingFields?: RequiredField[]) => {
  const error = envelopeA('cardholder_error', code, message);
  return missingFields ? new ApiError(error.status, { ...error.body, missing_fields: missingFields } as never) : error;
};
/** Envelope B, status 400: the spec's legacy messages. */
const legacy = (message: string) => envelopeB(400, message);

export const CardErrors = {
  notFound: () => cardError('card_not_found', 'Card not found or deactivated'),
  productNotFound: () => cardError('product_not_found', 'Card product not found or inactive'),
  operationNotAuthorized: (why: string) => cardError('operation_not_authorized', why),
  riskControlNotAllowed: (control: string) => cardError('risk_control_not_allowed', `risk_controls.${control} is not permitted by the card product`),
  currencyNotAllowed: (currency: string) => cardError('currency_not_allowed', `card currency ${currency} is not allowed by the card product`),
  limitOutOfRange: (rule: string) => cardError('limit_out_of_range', `card_limit ${rule}`),
  cardholderQuotaExceeded: () => cardError('cardholder_quota_exceeded', 'The cardholder reached the maximum number of active cards'),
  accountQuotaExceeded: () => cardError('account_quota_exceeded', 'The account reached the card quota of this product'),
  expired: () => cardError('card_expired_error', 'The card has expired'),
  statusNotSupported: (status: string) => cardError('status_not_supported', `The card status ${status} does not support this operation`),
  virtualCardPin: () => cardError('virtual_card_pin_error', 'Virtual cards have no PIN'),
  autoCancelTriggerEmpty: () => cardError('auto_cancel_trigger cannot be empty', 'auto_cancel_trigger cannot be empty'),
  autoCancelTriggerInvalid: () => cardError('invalid auto_cancel_trigger', 'invalid auto_cancel_trigger'),
  expiryAtEmpty: () => cardError('expiry_at cannot be empty', 'expiry_at cannot be empty'),
  expiryAtInvalid: (rule: string) => cardError('invalid expiry_at', `invalid expiry_at: ${rule}`),
  cardArtNotAvailable: () => cardError('card_art_not_available', 'card_art_id is not in the account\'s card arts'),
  cardArtNotConfigured: () => cardError('card_art_not_configured', 'No default card art is configured for the account'),
  cardArtNotSupported: () => cardError('card_art_not_supported', 'The card product does not support card art'),
  elevationInEffect: () =>
    cardError('limit_elevation_in_effect', 'The card already has a processing or active per-transaction limit elevation'),
  elevationTooHigh: (max: number, currency: string) => cardError('limit_out_of_range', `per_transaction_limit must be at most ${max} for ${currency}`),
  networkProtectionEnrolled: () => cardError('network_protection_enrolled', 'The card is already enrolled in network protection'),
  networkProtectionNotEnrolled: () => cardError('network_protection_not_enrolled', 'The card is not enrolled in network protection'),
  cardOrderNotFound: () => legacy('Card order is not exists'),

  // Envelope B (spec 7.4)
  statusInvalid: () => legacy('Card status is invalid'),
  notActive: () => legacy('The card is not active.'),
  updateReasonTooLong: () => legacy('Update reason is too long'),
  expiredLegacy: () => legacy('The card has expired'),
  invalidExpiryDate: () => legacy('Invalid expiry date'),
  invalidCardType: () => legacy('Invalid card type.'),
  cardNumberNotExist: () => legacy('card number not exist'),
  limitBelowUsed: () => legacy('Update card limit is less than the amount of used card'),
  limitNotPositive: () => legacy('Failed Update. Card Limit should be greater than 0'),
  limitBelowPerTransaction: () => legacy('Failed Update. Card Limit should be greater than Per transaction'),
  transactionLimitNotPositive: () => legacy('Failed Update. Your transaction limit should be greater than 0'),
  singleCardLimit: () => legacy('The single card not support changing card limits'),
  oneTimeCard: () => legacy('This operation cannot be performed on One-Time Card.'),
  availableInsufficient: () => legacy('Card available limit insufficient'),
  alreadyActivated: () => legacy('The card has been activated.'),
  invalidActivationCode: () => legacy('Invalid activation code.'),
  riskControlSettingNotAllowed: () => legacy('risk control setting is not allowed'),
  accountQuotaExceededLegacy: () => legacy('Account card quota exceeded.'),
  cardholderQuotaExceededLegacy: () => legacy('Cardholder card quota exceeded.'),
  accountBalanceNotExists: () => legacy('Account balance not exists'),
  insufficientBalance: () => legacy('Insufficient balance'),
  negativeNoPinAmount: () => legacy('Negative no pin payment amount.'),
  noPinPrecision: () => legacy('Invalid no pin payment amount precision.'),
  noPinAboveCeiling: () => legacy('invalid no pin payment amount for the current currency.'),
  noPinNotConfigured: () => legacy('The no_pin_payment_amount restrict configuration cannot be found'),
  productNotCreatable: () => legacy('The card product currently does not support creation'),
  cardholderNotFoundForList: () => legacy('Cardholder not found or deactivated'),
  cardFailed: () => legacy('The card is failed.'),
  cardModeMismatch: () => cardError('operation_not_authorized', 'card_mode does not match the card product of this card number'),
};

export const CardholderErrors = {
  notFound: () => cardholderError('cardholder_not_found', 'Cardholder not found or deactivated'),
  alreadyExists: () => cardholderError('cardholder_already_exists', 'A cardholder with the same identifying details is already on file'),
  emailDuplicated: () => cardholderError('email_duplicated', 'email is already used by another cardholder of the account'),
  phoneDuplicated: () => cardholderError('phone_number_duplicated', 'phone_number is already used by another cardholder of the account'),
  invalidPhone: (why: string) => cardholderError('invalid_phone_number', why),
  invalidName: (field: 'first_name' | 'last_name') =>
    cardholderError(`invalid_${field}`, `${field} must contain only ASCII letters and spaces, with no leading or trailing space`),
  invalidDateOfBirth: (why: string) => cardholderError('invalid_date_of_birth', why),
  missingDateOfBirth: () => cardholderError('missing_date_of_birth', 'date_of_birth is required when uploading identity documents'),
  invalidDeliveryAddress: () =>
    cardholderError('invalid_delivery_address', 'delivery_address needs country (ISO 3166-1 alpha-2), state, city, postal_code and line1'),
  missingCountryCode: () => cardholderError('missing_country_code', 'country_code (ISO 3166-1 alpha-2) is required for the SUMSUB_REDIRECT KYC method'),
  documentDuplicated: () => cardholderError('document_duplicated', 'This document is already approved for the cardholder'),
  fileTypeNotSupported: (field: string) => cardholderError('file_type_not_supported', `${field}: allowed types are JPEG, PNG and PDF`),
  invalidFileContent: (field: string) =>
    cardholderError('invalid_file_content', `${field} must be standard Base64 without a data-URL prefix or line breaks`),
  documentSizeExceeded: (field: string) => cardholderError('document_size_exceeded', `${field}: the decoded file must be under 2 MB`),
  identityFileMissing: (file: string) => cardholderError('identity_file_missing', `identity.${file} is required for this identity type`),
  invalidIdentityType: () => cardholderError('invalid_identity_type', 'identity.type must be ID_CARD or PASSPORT'),
  invalidKycMethod: () => cardholderError('invalid_kyc_method', 'kyc_verification.method must be THIRD_PARTY or SUMSUB_REDIRECT'),
  kycProofRequired: () => cardholderError('kyc_proof_required', 'kyc_verification.kyc_proof is required for THIRD_PARTY'),
  referenceIdDuplicated: () => cardholderError('reference_id_duplicated', 'kyc_verification.reference_id is already used'),
  referenceIdTooShort: () => cardholderError('reference_id_too_short', 'kyc_verification.reference_id must be at least 10 characters'),
  kycPending: () => cardholderError('cardholder_kyc_pending', 'The cardholder\'s KYC is under review'),
  kycFailed: () => cardholderError('cardholder_kyc_failed', 'The cardholder\'s KYC was rejected'),
  kycInsufficient: (missing: RequiredField[]) =>
    cardholderError('kyc_insufficient', 'The cardholder lacks fields the card product requires', missing),
  supplementIncomplete: (missing: RequiredField[]) =>
    cardholderError('supplement_fields_incomplete', 'The supplemented cardholder fields are incomplete', missing),
  cannotUpdateDuringReview: () =>
    cardholderError('cardholder_cannot_update_during_review', 'KYC fields cannot change while the KYC review is pending'),
  missingInfo: () => cardholderError('cardholder_missing_info', 'cardholder_id or complete cardholder_required_fields are required'),
  incompleteFields: (missing: RequiredField[]) =>
    cardholderError('cardholder_incomplete_fields', 'cardholder_required_fields are incomplete for one-step issuing', missing),
  hasCards: () =>
    envelopeA('invalid_request_error', 'cardholder_has_cards', 'The cardholder still has cards that are not cancelled; cancel them first'),
};

/** The account's real-time authorization decision endpoint (wire-compat §11.12; no spec code, so the webhook URL's shape). */
export const DecisionErrors = {
  notSet: () => envelopeA('invalid_request_error', 'resource_not_found', 'No authorization decision endpoint is set for the account'),
  /** Scheme, length, or a host that resolves to a forbidden address (libs/platform outbound guard). */
  invalidUrl: (reason: string) => envelopeA('invalid_request_error', 'invalid_decision_endpoint_url', reason),
};

/** Refused transitions the services did not answer themselves: a clear 400 naming the current status. */
export const mapIssuingError: ErrorMapper = (error) => {
  if (error instanceof TransitionRefusedError) {
    if (error.aggregate === 'Card') return CardErrors.statusInvalid();
    return envelopeA('invalid_request_error', 'unexpected_state', error.message);
  }
  if (error instanceof AggregateNotFoundError) return envelopeA('invalid_request_error', 'resource_not_found', `${error.aggregate} not found`);
  return error;
};
