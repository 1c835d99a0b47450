import { AccountStatus, BusinessCode, EntityType, VerificationStatus } from './accounts';

/**
 * The Account object of spec 2.10 as the accounts service answers it (list item, retrieve response,
 * the `data` of account events) and the reply of create sub-account (wire-compat 10.3). Declared here,
 * beside the commands that return them, so the gateway's API reference and the bus reference describe
 * the very types the service is compiled against.
 *
 * Two variants share the common fields: COMPANY adds business_details and the company addresses and
 * representatives; INDIVIDUAL adds person_details and residential_address (the spec does not show that
 * variant; we follow the SDKs' legacy individual create, wire-compat 10.4). Deliberate wire spellings:
 * representatives carry `other_doucments` (the spec's spelling), and the nickname is sent both as
 * `nickname` and as the SDK's `nick_name`.
 */
/** A free-form JSON object, stored and served whole. */
export type JsonObject = { [key: string]: unknown };

export interface AccountAddress {
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

/** A document reference; `front`/`back` are what the client uploaded (file ids or data). */
export interface DocumentRef {
  type: string;
  front: string;
  back?: string;
}

export interface ContactDetails {
  email?: string;
  phone?: string;
}

export interface RepresentativeView {
  representative_id: string;
  roles: string[];
  first_name: string;
  last_name: string;
  name_in_other_language?: string;
  email?: string;
  phone?: string;
  job_title?: string;
  nationality: string;
  date_of_birth: string;
  tax_number?: string;
  identification: { type: string; id_number: string; documents: { front?: string; back?: string } };
  residential_address: AccountAddress;
  as_applicant: boolean;
  share_percentage?: string;
  other_doucments: DocumentRef[];
}

export interface AccountViewBase {
  account_id: string;
  short_reference_id: string;
  business_code: BusinessCode[];
  email: string;
  account_name: string;
  nickname: string | null;
  nick_name: string | null;
  country: string;
  entity_type: EntityType;
  status: AccountStatus;
  verification_status: VerificationStatus;
  /** Empty unless a review was not approved. */
  review_reason: string;
  contact_details: ContactDetails;
  documents: DocumentRef[];
  tos_acceptance: JsonObject | null;
  create_time: string;
  update_time: string;
}

export interface CompanyAccountView extends AccountViewBase {
  entity_type: 'COMPANY';
  business_details: JsonObject;
  registration_address: AccountAddress | null;
  business_address: AccountAddress[];
  representatives: RepresentativeView[];
}

export interface IndividualAccountView extends AccountViewBase {
  entity_type: 'INDIVIDUAL';
  person_details: JsonObject;
  residential_address: AccountAddress | null;
}

export type AccountView = CompanyAccountView | IndividualAccountView;

export interface AccountPage {
  total_pages: number;
  total_items: number;
  data: AccountView[];
}

/** Wire-compat 10.3 response of create sub-account. */
export interface CreatedSubAccountView {
  account_id: string;
  short_reference_id: string;
  status: AccountStatus;
  business_type: BusinessCode;
  entity_type: EntityType;
  nickname: string | null;
}
