import { AccountStatus, BusinessCode, EntityType, VerificationStatus } from '@paygrid/contracts';
import { AccountEntity, Address, ContactDetails, DocumentRef, JsonObject, Representative } from './account.entity';

/**
 * Domain → wire: the Account object of spec 2.10 (list item, retrieve response, and the `data` of
 * account events). Two variants share the common fields: COMPANY adds business_details and the
 * company addresses and representatives; INDIVIDUAL adds person_details and residential_address
 * (the spec does not show that variant; we follow the SDKs' legacy individual create, wire-compat 10.4).
 *
 * Deliberate wire spellings: representatives carry `other_doucments` (the spec's spelling), and the
 * nickname is sent both as `nickname` and as the SDK's `nick_name`. Internal fields (review due time,
 * onboarding answers, capture window) never leave the service.
 */
interface AccountViewBase {
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

export type RepresentativeView = Omit<Representative, 'other_documents'> & { other_doucments: DocumentRef[] };

export interface CompanyAccountView extends AccountViewBase {
  entity_type: 'COMPANY';
  business_details: JsonObject;
  registration_address: Address | null;
  business_address: Address[];
  representatives: RepresentativeView[];
}

export interface IndividualAccountView extends AccountViewBase {
  entity_type: 'INDIVIDUAL';
  person_details: JsonObject;
  residential_address: Address | null;
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

export function presentAccount(account: AccountEntity): AccountView {
  const base: AccountViewBase = {
    account_id: account.accountId,
    short_reference_id: account.shortReferenceId,
    business_code: [...account.businessCode],
    email: account.email,
    account_name: account.accountName,
    nickname: account.nickname,
    nick_name: account.nickname,
    country: account.country,
    entity_type: account.entityType,
    status: account.status,
    verification_status: account.verificationStatus,
    review_reason: account.reviewReason ?? '',
    contact_details: account.contactDetails,
    documents: account.documents,
    tos_acceptance: account.tosAcceptance,
    create_time: account.createdAt.toISOString(),
    update_time: account.updatedAt.toISOString(),
  };
  if (account.entityType === 'INDIVIDUAL') {
    return {
      ...base,
      entity_type: 'INDIVIDUAL',
      person_details: account.personDetails ?? {},
      residential_address: account.residentialAddress,
    };
  }
  return {
    ...base,
    entity_type: 'COMPANY',
    business_details: account.businessDetails ?? {},
    registration_address: account.registrationAddress,
    business_address: account.businessAddress,
    representatives: account.representatives.map(presentRepresentative),
  };
}

export function presentRepresentative(representative: Representative): RepresentativeView {
  const { other_documents, ...rest } = representative;
  return { ...rest, other_doucments: other_documents };
}

export function presentPage(accounts: AccountEntity[], totalItems: number, pageSize: number): AccountPage {
  return {
    total_pages: Math.ceil(totalItems / pageSize),
    total_items: totalItems,
    data: accounts.map(presentAccount),
  };
}

export function presentCreated(account: AccountEntity, businessType: BusinessCode): CreatedSubAccountView {
  return {
    account_id: account.accountId,
    short_reference_id: account.shortReferenceId,
    status: account.status,
    business_type: businessType,
    entity_type: account.entityType,
    nickname: account.nickname,
  };
}
