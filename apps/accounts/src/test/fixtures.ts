import { Actor } from '@paygrid/contracts';
import { ApiError, SerializedApiError } from '@paygrid/platform';
import { Account } from '../modules/accounts/account.types';

/** Test data shared by the unit and integration tests of the accounts service. */
export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    accountId: '11111111-1111-4111-8111-111111111111',
    shortReferenceId: 'P123456789',
    parentAccountId: null,
    businessCode: ['BANKING'],
    entityType: 'COMPANY',
    status: 'ACTIVE',
    verificationStatus: 'APPROVED',
    reviewReason: null,
    reviewDueAt: null,
    email: 'ops@example.com',
    accountName: 'Example Ltd',
    nickname: null,
    country: 'SG',
    contactDetails: { email: 'ops@example.com', phone: '+6512345678' },
    businessDetails: { legal_entity_name: 'Example Ltd' },
    personDetails: null,
    registrationAddress: null,
    residentialAddress: null,
    businessAddress: [],
    representatives: [],
    documents: [],
    tosAcceptance: null,
    onboardingDetails: {},
    captureWindowHours: 24,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}

export function actorFor(account: Pick<Account, 'accountId' | 'parentAccountId'>): Actor {
  return {
    account_id: account.accountId,
    master_account_id: account.parentAccountId ?? account.accountId,
    caller_account_id: account.accountId,
    client_id: 'cli_test',
    permissions: [],
  };
}

/** A complete COMPANY create-sub-account body (wire-compat 10.3), as the SDKs send it. */
export function companyBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    business_type: 'ACQUIRING',
    entity_type: 'COMPANY',
    nickname: 'Shop One',
    inherit: 1,
    company_info: {
      legal_business_name: '新加坡商店私人有限公司',
      legal_business_name_english: 'Shop One Pte Ltd',
      country_of_incorporation: 'SG',
      company_type: 'LIMITED_COMPANY',
      phone_number: '+6561234567',
      email_address: 'owner@shop-one.example',
      company_registration_number: '201912345K',
      tax_type: 'GST',
      tax_number: 'M90312345',
      incorparate_date: '2019-04-01',
      certification_of_incorporation: ['file_cert_1'],
    },
    company_address: { street_address: '10 Anson Road', city: 'Singapore', postal_code: '079903', country: 'SG' },
    ownership_details: {
      representatives: [
        {
          legal_first_name_english: 'Mei',
          legal_last_name_english: 'Tan',
          email_address: 'mei@shop-one.example',
          is_applicant: '1',
          job_title: 'Director',
          ownership_percentage: 60,
          nationality: 'SG',
          phone_number: '+6591234567',
          date_of_birth: '1985-06-15',
          country_or_territory: 'SG',
          street_address: '1 Orchard Road',
          city: 'Singapore',
          postal_code: '238824',
          identification_type: 'PASSPORT',
          identification_value: 'K1234567',
          identity_docs: ['file_passport_front', 'file_passport_back'],
          other_documents: [{ type: 'PROOF_OF_ADDRESS', doc_str: 'file_utility_bill' }],
        },
      ],
      shareholder_docs: ['file_register'],
    },
    business_details: {
      country_or_territory: 'SG',
      street_address: '10 Anson Road',
      city: 'Singapore',
      postal_code: '079903',
      industry: '5734',
      turnover_monthly: 'TM002',
      number_of_employee: 'BS002',
      website_url: 'https://shop-one.example',
      company_description: 'Online electronics shop',
      account_purpose: ['PAYMENT'],
    },
    tos_acceptance: { ip: '203.0.113.7', date: '2026-01-02T03:04:05Z', user_agent: 'Mozilla/5.0' },
    ...overrides,
  };
}

/** A complete INDIVIDUAL body (banking only). */
export function individualBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    business_type: 'BANKING',
    entity_type: 'INDIVIDUAL',
    nickname: 'Jane personal',
    individual_info: {
      first_name_english: 'Jane',
      last_name_english: 'Doe',
      nationality: 'GB',
      phone_number: '+447700900123',
      email_address: 'jane@example.com',
      date_of_birth: '1990-02-28',
      gender: 'FEMALE',
      country_or_territory: 'GB',
      street_address: '221B Baker Street',
      city: 'London',
      postal_code: 'NW1 6XE',
      employment_status: 'Employed',
      annual_income: '80000',
    },
    identity_verification: {
      identification_type: 'PASSPORT',
      identification_value: '123456789',
      identity_docs: ['file_id_front'],
      face_docs: ['file_selfie'],
    },
    expected_activity: { account_purpose: ['SAVINGS'], internationally: 1, turnover_monthly: 'TM001', turnover_monthly_currency: 'GBP' },
    proof_documents: { proof_of_address: ['file_bank_statement'] },
    ...overrides,
  };
}

/** The serialized refusal a promise rejects with; fails the test when it resolves or throws anything else. */
export async function refusalFrom(promise: Promise<unknown>): Promise<SerializedApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error.serialize();
}
