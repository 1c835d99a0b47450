import { CardholderStatus, IdvStatus } from '@paygrid/contracts';

/** A cardholder (domain shape). Documents live in cardholder_documents; only their presence is here. */
export interface Cardholder {
  cardholderId: string;
  accountId: string;
  masterAccountId: string;
  email: string;
  firstName: string;
  lastName: string;
  countryCode: string;
  phoneNumber: string;
  dateOfBirth: string | null;
  deliveryAddress: Record<string, string> | null;
  residentialAddress: Record<string, string> | null;
  gender: string | null;
  nationality: string | null;
  /** Type, number and which identity files are on file. */
  identity: { type: string; number: string; files: string[] } | null;
  documentType: string | null;
  kycMethod: string | null;
  kycReferenceId: string | null;
  status: CardholderStatus;
  reviewCount: number;
  idvStatus: IdvStatus;
  idvUrl: string | null;
  idvUrlExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function cardholderFromRow(row: Record<string, unknown>): Cardholder {
  return {
    cardholderId: row.cardholder_id as string,
    accountId: row.account_id as string,
    masterAccountId: row.master_account_id as string,
    email: row.email as string,
    firstName: row.first_name as string,
    lastName: row.last_name as string,
    countryCode: row.country_code as string,
    phoneNumber: row.phone_number as string,
    dateOfBirth: (row.date_of_birth as string | null) ?? null,
    deliveryAddress: (row.delivery_address as Record<string, string> | null) ?? null,
    residentialAddress: (row.residential_address as Record<string, string> | null) ?? null,
    gender: (row.gender as string | null) ?? null,
    nationality: (row.nationality as string | null) ?? null,
    identity: (row.identity as Cardholder['identity']) ?? null,
    documentType: (row.document_type as string | null) ?? null,
    kycMethod: (row.kyc_method as string | null) ?? null,
    kycReferenceId: (row.kyc_reference_id as string | null) ?? null,
    status: row.cardholder_status as CardholderStatus,
    reviewCount: Number(row.review_count),
    idvStatus: row.idv_status as IdvStatus,
    idvUrl: (row.idv_url as string | null) ?? null,
    idvUrlExpiresAt: (row.idv_url_expires_at as Date | null) ?? null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}
