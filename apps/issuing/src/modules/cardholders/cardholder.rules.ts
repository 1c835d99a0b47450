import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  DeliveryAddressInput,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  IDENTITY_TYPES,
  IdentityInput,
  KYC_METHODS,
  KycVerificationInput,
} from '@paygrid/contracts';
import { ApiError } from '@paygrid/platform';
import { CardholderErrors } from '../../common/issuing-errors';

/**
 * The cardholder rules the spec answers with its own cardholder_error codes (spec 7.5, decisions §1): names,
 * age, phone numbers, addresses, documents, identity and KYC method. Pure functions: each returns the refusal
 * to throw, or the normalised value.
 */

/** ASCII letters and spaces, no leading or trailing space. */
export function checkName(field: 'first_name' | 'last_name', value: string): ApiError | undefined {
  return /^[A-Za-z](?:[A-Za-z ]*[A-Za-z])?$/.test(value) ? undefined : CardholderErrors.invalidName(field);
}

/** YYYY-MM-DD, a real date, 18 or older today (UTC). */
export function checkDateOfBirth(value: string, today: Date = new Date()): ApiError | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return CardholderErrors.invalidDateOfBirth('date_of_birth must be a date as YYYY-MM-DD');
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return CardholderErrors.invalidDateOfBirth('date_of_birth must be a date as YYYY-MM-DD');
  }
  const eighteenth = Date.UTC(year + 18, month - 1, day);
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return todayUtc >= eighteenth ? undefined : CardholderErrors.invalidDateOfBirth('the cardholder must be 18 or older');
}

export interface NormalisedPhone {
  /** ISO alpha-2 when given as one, else the calling code digits. */
  countryCode: string;
  /** E.164, e.g. +6581234567: also the duplicate key. */
  phoneNumber: string;
}

/**
 * Decisions §1: country_code is an ISO 3166-1 alpha-2 country or a digits-only calling code (a leading + is
 * tolerated); the number has digits only, with or without a leading +, and a length possible in that country.
 */
export function normalisePhone(countryCode: string, phoneNumber: string): NormalisedPhone | ApiError {
  const country = countryCode.trim().toUpperCase();
  let callingCode: string;
  if (/^[A-Z]{2}$/.test(country)) {
    if (!isSupportedCountry(country)) return CardholderErrors.invalidPhone('country_code is not a known ISO 3166-1 alpha-2 country');
    callingCode = getCountryCallingCode(country);
  } else if (/^\+?\d{1,4}$/.test(country)) {
    callingCode = country.replace('+', '');
  } else {
    return CardholderErrors.invalidPhone('country_code must be an ISO 3166-1 alpha-2 country or a digits-only calling code');
  }
  if (!/^\+?\d{4,20}$/.test(phoneNumber)) {
    return CardholderErrors.invalidPhone('phone_number must be digits only, with or without a leading +');
  }
  // Without a +, the digits are national, or international without the + ("6581234567"): a valid reading wins.
  const readings = phoneNumber.startsWith('+')
    ? [phoneNumber]
    : [`+${callingCode}${phoneNumber}`, ...(phoneNumber.startsWith(callingCode) ? [`+${phoneNumber}`] : [])];
  const parsedReadings = readings.map((reading) => parsePhoneNumberFromString(reading));
  const parsed = parsedReadings.find((reading) => reading?.isValid()) ?? parsedReadings[0];
  if (!parsed || parsed.countryCallingCode !== callingCode) {
    return CardholderErrors.invalidPhone(`phone_number must be a number of calling code +${callingCode}`);
  }
  if (!parsed.isPossible()) return CardholderErrors.invalidPhone(`phone_number has the wrong length for calling code +${callingCode}`);
  return { countryCode: /^[A-Z]{2}$/.test(country) ? country : callingCode, phoneNumber: parsed.number };
}

export function checkDeliveryAddress(address: DeliveryAddressInput): ApiError | undefined {
  const complete = ['country', 'state', 'city', 'postal_code', 'line1'].every((field) => {
    const value = address[field as keyof DeliveryAddressInput];
    return typeof value === 'string' && value.trim() !== '';
  });
  return complete && /^[A-Z]{2}$/.test(address.country ?? '') && isSupportedCountry(address.country as never)
    ? undefined
    : CardholderErrors.invalidDeliveryAddress();
}

export type FileKind = 'pdf' | 'png' | 'jpeg';
export interface CheckedFile {
  content: Buffer;
  kind: FileKind;
}

/** Standard base64 (no data-URL prefix, no line breaks) of a PDF, PNG or JPEG under 2 MB. */
export function checkFile(field: string, base64: string, declaredType?: string): CheckedFile | ApiError {
  if (base64.length === 0 || base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    return CardholderErrors.invalidFileContent(field);
  }
  const content = Buffer.from(base64, 'base64');
  if (content.length >= DOCUMENT_MAX_BYTES) return CardholderErrors.documentSizeExceeded(field);
  const kind = sniff(content);
  if (!kind) return CardholderErrors.fileTypeNotSupported(field);
  if (declaredType !== undefined) {
    const declared = declaredType.toLowerCase();
    if (!(DOCUMENT_TYPES as readonly string[]).includes(declared)) return CardholderErrors.fileTypeNotSupported('document_type');
    if ((declared === 'jpg' ? 'jpeg' : declared) !== kind) return CardholderErrors.fileTypeNotSupported(field);
  }
  return { content, kind };
}

function sniff(content: Buffer): FileKind | undefined {
  if (content.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (content.length > 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'jpeg';
  return undefined;
}

/** Which files an identity type needs (spec: back_file for ID_CARD, hand_file for PASSPORT). */
export const IDENTITY_FILES: Record<(typeof IDENTITY_TYPES)[number], (keyof IdentityInput)[]> = {
  ID_CARD: ['front_file', 'back_file'],
  PASSPORT: ['hand_file'],
};

export function checkIdentity(identity: IdentityInput, hasDateOfBirth: boolean): ApiError | undefined {
  if (!(IDENTITY_TYPES as readonly string[]).includes(identity.type)) return CardholderErrors.invalidIdentityType();
  const missing = IDENTITY_FILES[identity.type as (typeof IDENTITY_TYPES)[number]].find((file) => !identity[file]);
  if (missing) return CardholderErrors.identityFileMissing(missing);
  return hasDateOfBirth ? undefined : CardholderErrors.missingDateOfBirth();
}

export function checkKycVerification(kyc: KycVerificationInput, countryCode: string | undefined): ApiError | undefined {
  if (!(KYC_METHODS as readonly string[]).includes(kyc.method)) return CardholderErrors.invalidKycMethod();
  if (kyc.method === 'THIRD_PARTY' && !kyc.kyc_proof) return CardholderErrors.kycProofRequired();
  if (kyc.method === 'SUMSUB_REDIRECT' && !(countryCode && /^[A-Z]{2}$/.test(countryCode))) return CardholderErrors.missingCountryCode();
  if (kyc.reference_id !== undefined && kyc.reference_id.length < 10) return CardholderErrors.referenceIdTooShort();
  return undefined;
}
