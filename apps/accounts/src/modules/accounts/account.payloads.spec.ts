import {
  CreateSubAccountDto,
  GetAdditionalPayload,
  ListAccountsPayload,
  requestedBusinessCodes,
  RetrieveAccountPayload,
  subAccountCrossFieldProblems,
  validatePayload,
} from '@paygrid/contracts';
import { companyBody, individualBody } from '../../test/fixtures';

/**
 * The payload classes of the account commands (libs/contracts/src/accounts.commands.ts and
 * create-sub-account.dto.ts), checked with the accounts service's own test bodies.
 */

function problemsOf(body: unknown): string[] {
  const result = validatePayload(CreateSubAccountDto, body);
  return result.ok ? subAccountCrossFieldProblems(result.value) : result.problems;
}

describe('CreateSubAccountDto', () => {
  it('accepts a complete COMPANY body as the SDKs send it', () => {
    expect(problemsOf(companyBody())).toEqual([]);
  });

  it('accepts a complete INDIVIDUAL banking body', () => {
    expect(problemsOf(individualBody())).toEqual([]);
  });

  it('accepts business_code alone, without the deprecated business_type', () => {
    expect(
      problemsOf(companyBody({ business_type: undefined, business_code: ['ACQUIRING', 'ISSUING'] })),
    ).toEqual([]);
  });

  it('asks for business_type or business_code when neither is given', () => {
    expect(problemsOf(companyBody({ business_type: undefined }))).toEqual([
      'business_type: is required unless business_code is given',
    ]);
  });

  it('names the nested field path and the rule', () => {
    const body = companyBody();
    (body.company_info as Record<string, unknown>).email_address = 'not-an-email';
    expect(problemsOf(body)).toEqual(['company_info.email_address: must be an email']);
  });

  it('names array positions in the path', () => {
    const body = companyBody();
    const [representative] = (body.ownership_details as { representatives: Record<string, unknown>[] })
      .representatives;
    representative.nationality = 'Singaporean';
    expect(problemsOf(body)).toEqual([
      'ownership_details.representatives[0].nationality: must be an ISO 3166-1 alpha-2 country code',
    ]);
  });

  it('reports a missing required field as required', () => {
    const body = companyBody();
    delete (body.company_info as Record<string, unknown>).company_registration_number;
    expect(problemsOf(body)).toEqual(['company_info.company_registration_number: is required']);
  });

  it('accepts the SDK’s minimal COMPANY create, without company_info (wire-compat 10.3)', () => {
    const minimal = { business_type: 'ACQUIRING', entity_type: 'COMPANY', nickname: 'Minimal', inherit: 1 };
    expect(problemsOf(minimal)).toEqual([]);
    expect(problemsOf({ business_type: 'ISSUING', entity_type: 'COMPANY' })).toEqual([]);
  });

  it('requires company_info only from a COMPANY that refuses the master’s profile (inherit -1)', () => {
    expect(problemsOf(companyBody({ company_info: undefined, inherit: -1 }))).toEqual([
      'company_info: is required when entity_type is COMPANY and inherit is -1',
    ]);
    expect(problemsOf(companyBody({ inherit: -1 }))).toEqual([]);
  });

  it('accepts an INDIVIDUAL without individual_info, and still requires expected_activity and proof of address', () => {
    expect(problemsOf(individualBody({ individual_info: undefined }))).toEqual([]);
    expect(problemsOf(individualBody({ individual_info: undefined, expected_activity: undefined }))).toEqual([
      'expected_activity: is required when entity_type is INDIVIDUAL',
    ]);
    expect(problemsOf(individualBody({ proof_documents: { proof_of_address: [] } }))).toEqual([
      'proof_documents.proof_of_address: should not be empty',
    ]);
  });

  it('refuses unknown fields at any depth instead of dropping them', () => {
    const body = companyBody({ surprise: true });
    (body.company_info as Record<string, unknown>).extra = 'x';
    expect(problemsOf(body)).toEqual([
      'surprise: is not an accepted field',
      'company_info.extra: is not an accepted field',
    ]);
  });

  it('refuses an impossible date and a malformed phone number', () => {
    const body = individualBody();
    Object.assign(body.individual_info as object, { date_of_birth: '1990-02-30', phone_number: 'call me' });
    expect(problemsOf(body)).toEqual([
      'individual_info.phone_number: must be a phone number (digits, optional leading +)',
      'individual_info.date_of_birth: must be a date as YYYY-MM-DD',
    ]);
  });

  it('refuses an array where an object belongs without noise about its elements', () => {
    expect(problemsOf(companyBody({ company_address: [{}] }))).toEqual([
      'company_address: must be an object',
    ]);
  });

  it('offers INDIVIDUAL only for banking and never mixes the two variants', () => {
    expect(problemsOf(individualBody({ business_type: 'ISSUING' }))).toEqual([
      'entity_type INDIVIDUAL is only available for business_code BANKING',
    ]);
    expect(problemsOf(companyBody({ individual_info: individualBody().individual_info as object }))).toEqual([
      'individual_info: is not allowed when entity_type is COMPANY',
    ]);
  });

  it('answers a payload that is not an object with one clear sentence', () => {
    expect(problemsOf('hello')).toEqual(['payload: must be an object']);
    expect(problemsOf(null)).toEqual(['payload: must be an object']);
    expect(problemsOf([])).toEqual(['payload: must be an object']);
  });

  it('never quotes the offending value in a message', () => {
    const body = companyBody();
    (body.company_info as Record<string, unknown>).email_address = 'sk_secret_value';
    expect(problemsOf(body).join(' ')).not.toContain('sk_secret_value');
  });

  it('merges business_code and business_type without duplicates', () => {
    expect(
      requestedBusinessCodes({ business_type: 'BANKING', business_code: ['ISSUING', 'BANKING'] }),
    ).toEqual(['ISSUING', 'BANKING']);
    expect(requestedBusinessCodes({ business_type: 'ACQUIRING' })).toEqual(['ACQUIRING']);
  });
});

describe('account query DTOs', () => {
  it('refuses a page size outside 10 to 100 and a page number below 1', () => {
    const result = validatePayload(ListAccountsPayload, { page_size: 5, page_number: 0 });
    expect(result).toEqual({
      ok: false,
      problems: ['page_size: must not be less than 10', 'page_number: must not be less than 1'],
    });
    expect(validatePayload(ListAccountsPayload, { page_size: 101, page_number: 1 })).toEqual({
      ok: false,
      problems: ['page_size: must not be greater than 100'],
    });
  });

  it('requires a uuid v4 account id on retrieve and defaults nothing else', () => {
    expect(validatePayload(RetrieveAccountPayload, { account_id: 'nope' })).toEqual({
      ok: false,
      problems: ['account_id: must be a UUID'],
    });
    expect(
      validatePayload(RetrieveAccountPayload, { account_id: '5a0d0b0c-0000-4000-8000-000000000001' }).ok,
    ).toBe(true);
  });

  it('takes the country of get_additional in either case, as create sub-account does', () => {
    expect(validatePayload(GetAdditionalPayload, { country: 'sg', business_code: 'ACQUIRING' }).ok).toBe(true);
    expect(validatePayload(GetAdditionalPayload, { country: 'SG', business_code: 'ACQUIRING' }).ok).toBe(true);
  });

  it('checks the country and business code of get_additional', () => {
    expect(validatePayload(GetAdditionalPayload, { country: 'XX', business_code: 'CASH' })).toEqual({
      ok: false,
      problems: [
        'country: must be an ISO 3166-1 alpha-2 country code',
        'business_code: must be one of the following values: BANKING, ACQUIRING, ISSUING, RAMP',
      ],
    });
  });
});
