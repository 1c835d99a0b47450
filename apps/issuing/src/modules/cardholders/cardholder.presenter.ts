import { CardholderEventData, CardholderView, CardholderWriteView } from '@paygrid/contracts';
import { Cardholder } from './cardholder.types';

/** Domain → wire (wire-compat §11.3, §13.4). Documents and files are never returned. */
const REVIEW_STATUS: Record<Cardholder['status'], string> = {
  PENDING: 'IN_REVIEW',
  SUCCESS: 'APPROVED',
  FAILED: 'REJECTED',
  INCOMPLETE: 'INCOMPLETE',
};

export function presentCardholderWrite(cardholder: Cardholder): CardholderWriteView {
  return {
    cardholder_id: cardholder.cardholderId,
    cardholder_status: cardholder.status,
    ...(cardholder.idvUrl ? { idv_verification_url: cardholder.idvUrl } : {}),
    ...(cardholder.idvUrlExpiresAt ? { idv_url_expires_at: cardholder.idvUrlExpiresAt.toISOString() } : {}),
  };
}

export function presentCardholder(cardholder: Cardholder, numberOfCards: number): CardholderView {
  return {
    cardholder_id: cardholder.cardholderId,
    email: cardholder.email,
    first_name: cardholder.firstName,
    last_name: cardholder.lastName,
    cardholder_status: cardholder.status,
    country_code: cardholder.countryCode,
    phone_number: cardholder.phoneNumber,
    number_of_cards: numberOfCards,
    create_time: cardholder.createdAt.toISOString(),
    ...(cardholder.dateOfBirth ? { date_of_birth: cardholder.dateOfBirth } : {}),
    ...(cardholder.deliveryAddress ? { delivery_address: cardholder.deliveryAddress } : {}),
    ...(cardholder.residentialAddress ? { residential_address: cardholder.residentialAddress } : {}),
    review_status: REVIEW_STATUS[cardholder.status],
    ...(cardholder.gender ? { gender: cardholder.gender } : {}),
    ...(cardholder.nationality ? { nationality: cardholder.nationality } : {}),
    ...(cardholder.identity ? { identity: { type: cardholder.identity.type, number: cardholder.identity.number } } : {}),
    idv_status: cardholder.idvStatus,
    ...(cardholder.idvUrl ? { idv_verification_url: cardholder.idvUrl } : {}),
    ...(cardholder.idvUrlExpiresAt ? { idv_url_expires_at: cardholder.idvUrlExpiresAt.toISOString() } : {}),
  };
}

export function cardholderEventData(cardholder: Cardholder): CardholderEventData {
  return {
    cardholder_id: cardholder.cardholderId,
    email: cardholder.email,
    first_name: cardholder.firstName,
    last_name: cardholder.lastName,
    date_of_birth: cardholder.dateOfBirth ?? '',
    country_code: cardholder.countryCode,
    nationality: cardholder.nationality ?? '',
    phone_number: cardholder.phoneNumber,
    cardholder_status: cardholder.status,
    idv_status: cardholder.idvStatus,
    idv_provider: cardholder.kycMethod === 'SUMSUB_REDIRECT' ? 'SUMSUB' : '',
    create_time: cardholder.createdAt.toISOString(),
  };
}
