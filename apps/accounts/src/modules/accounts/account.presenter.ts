import { AccountPage, AccountView, BusinessCode, CreatedSubAccountView, RepresentativeView } from '@paygrid/contracts';
import { Account, Representative } from './account.types';

/**
 * Domain → wire: the Account object of spec 2.10 (AccountView in libs/contracts: list item, retrieve
 * response, and the `data` of account events). Deliberate wire spellings: representatives carry
 * `other_doucments` (the spec's spelling), and the nickname is sent both as `nickname` and as the SDK's
 * `nick_name`. Internal fields (review due time, onboarding answers, capture window) never leave the
 * service.
 */
export function presentAccount(account: Account): AccountView {
  const base = {
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

export function presentPage(accounts: Account[], totalItems: number, pageSize: number): AccountPage {
  return {
    total_pages: Math.ceil(totalItems / pageSize),
    total_items: totalItems,
    data: accounts.map(presentAccount),
  };
}

export function presentCreated(account: Account, businessType: BusinessCode): CreatedSubAccountView {
  return {
    account_id: account.accountId,
    short_reference_id: account.shortReferenceId,
    status: account.status,
    business_type: businessType,
    entity_type: account.entityType,
    nickname: account.nickname,
  };
}
