import { isUuidV4 } from '@paygrid/ids';
import { anAccount, companyBody, individualBody } from '../../test/fixtures';
import { Account } from './account.types';
import { CompanyAccountView, CreateSubAccountDto, IndividualAccountView, validatePayload } from '@paygrid/contracts';
import { presentAccount, presentCreated } from './account.presenter';
import { toNewAccount } from './sub-account.mapper';

const MASTER = '5a0d0b0c-0000-4000-8000-000000000001';
const masterAccount = anAccount({
  accountId: MASTER,
  accountName: 'Master Holdings Pte Ltd',
  email: 'finance@master.example',
  country: 'SG',
  contactDetails: { email: 'finance@master.example', phone: '+6560000000' },
  businessDetails: { legal_entity_name_english: 'Master Holdings Pte Ltd', registration_number: '201800001A' },
  registrationAddress: { line1: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG' },
});

function mapped(body: Record<string, unknown>): Account {
  const result = validatePayload(CreateSubAccountDto, body);
  if (!result.ok) throw new Error(result.problems.join('; '));
  const created = new Date('2026-02-01T10:00:00Z');
  return {
    ...toNewAccount(result.value, masterAccount),
    shortReferenceId: 'P000123456',
    reviewDueAt: null,
    createdAt: created,
    updatedAt: created,
  };
}

describe('toNewAccount and presentAccount', () => {
  it('starts a new sub-account PROCESSING and PENDING under its master, with a uuid v4 id', () => {
    const account = mapped(companyBody());
    expect(account).toMatchObject({ parentAccountId: MASTER, status: 'PROCESSING', verificationStatus: 'PENDING' });
    expect(isUuidV4(account.accountId)).toBe(true);
    expect(account.captureWindowHours).toBe(24);
  });

  it('maps company_info to business_details and company_address to registration_address', () => {
    const view = presentAccount(mapped(companyBody())) as CompanyAccountView;
    expect(view).toMatchObject({
      entity_type: 'COMPANY',
      account_name: 'Shop One Pte Ltd',
      email: 'owner@shop-one.example',
      country: 'SG',
      business_code: ['ACQUIRING'],
      contact_details: { email: 'owner@shop-one.example', phone: '+6561234567' },
      registration_address: { line1: '10 Anson Road', city: 'Singapore', postal_code: '079903', country: 'SG' },
      business_address: [{ line1: '10 Anson Road', city: 'Singapore', postal_code: '079903', country: 'SG' }],
    });
    expect(view.business_details).toMatchObject({
      legal_entity_name: '新加坡商店私人有限公司',
      legal_entity_name_english: 'Shop One Pte Ltd',
      registration_number: '201912345K',
      business_structure: 'LIMITED_COMPANY',
      incorporation_date: '2019-04-01',
      identifier: { type: 'GST', number: 'M90312345' },
      website_url: 'https://shop-one.example',
    });
  });

  it('writes the representatives’ other documents as other_doucments, the spec’s spelling', () => {
    const view = presentAccount(mapped(companyBody())) as CompanyAccountView;
    const [representative] = view.representatives;
    expect(representative).toMatchObject({
      first_name: 'Mei',
      last_name: 'Tan',
      as_applicant: true,
      share_percentage: '60',
      roles: ['DIRECTOR', 'APPLICANT', 'OWNER'],
      identification: { type: 'PASSPORT', id_number: 'K1234567', documents: { front: 'file_passport_front', back: 'file_passport_back' } },
      other_doucments: [{ type: 'PROOF_OF_ADDRESS', front: 'file_utility_bill' }],
    });
    expect(representative).not.toHaveProperty('other_documents');
    expect(isUuidV4(representative.representative_id)).toBe(true);
  });

  it('shows the individual variant with person_details and residential_address', () => {
    const view = presentAccount(mapped(individualBody())) as IndividualAccountView;
    expect(view).toMatchObject({
      entity_type: 'INDIVIDUAL',
      account_name: 'Jane Doe',
      country: 'GB',
      person_details: { first_name: 'Jane', last_name: 'Doe', nationality: 'GB', date_of_birth: '1990-02-28' },
      residential_address: { line1: '221B Baker Street', city: 'London', postal_code: 'NW1 6XE', country: 'GB' },
    });
    expect(view.documents).toEqual(
      expect.arrayContaining([
        { type: 'PASSPORT', front: 'file_id_front' },
        { type: 'FACE_PHOTO', front: 'file_selfie' },
        { type: 'PROOF_OF_ADDRESS', front: 'file_bank_statement' },
      ]),
    );
    expect(view).not.toHaveProperty('business_details');
  });

  it('keeps internal fields off the wire and sends review_reason as an empty string until a rejection', () => {
    const view = presentAccount(mapped(companyBody()));
    expect(view.review_reason).toBe('');
    for (const internal of ['review_due_at', 'capture_window_hours', 'onboarding_details', 'parent_account_id']) {
      expect(view).not.toHaveProperty(internal);
    }
  });

  it('gives a COMPANY created without company_info its master’s profile (the SDK’s minimal create)', () => {
    const view = presentAccount(
      mapped({ business_type: 'ACQUIRING', entity_type: 'COMPANY', nickname: 'Minimal', inherit: 1 }),
    ) as CompanyAccountView;
    expect(view).toMatchObject({
      entity_type: 'COMPANY',
      nickname: 'Minimal',
      account_name: masterAccount.accountName,
      email: masterAccount.email,
      country: masterAccount.country,
      contact_details: masterAccount.contactDetails,
      business_details: masterAccount.businessDetails,
      registration_address: masterAccount.registrationAddress,
    });
  });

  it('names an INDIVIDUAL created without individual_info by its nickname, reached through the master', () => {
    const view = presentAccount(mapped(individualBody({ individual_info: undefined, nickname: 'Jane' }))) as IndividualAccountView;
    expect(view).toMatchObject({
      entity_type: 'INDIVIDUAL',
      account_name: 'Jane',
      email: 'finance@master.example',
      country: 'SG',
      person_details: {},
      residential_address: null,
    });
  });

  it('answers create with the SDK’s response shape', () => {
    expect(presentCreated(mapped(companyBody()), 'ACQUIRING')).toEqual({
      account_id: expect.any(String),
      short_reference_id: 'P000123456',
      status: 'PROCESSING',
      business_type: 'ACQUIRING',
      entity_type: 'COMPANY',
      nickname: 'Shop One',
    });
  });
});
