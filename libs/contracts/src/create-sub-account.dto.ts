import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsIP,
  IsISO4217CurrencyCode,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsUrl,
  Max,
  Min,
} from 'class-validator';
import { BUSINESS_CODES, BusinessCode, EntityType } from './accounts';
import {
  Country,
  CountryList,
  CurrencyList,
  DateOnly,
  DocumentList,
  Email,
  Nested,
  NestedList,
  Phone,
  RequiredWhen,
  Text,
  TextList,
} from './validation/field-rules';
import { CrossFieldRules } from './validation/cross-field-rules';

/**
 * The body of POST /v1/accounts/create_accounts (wire-compat 10.3) as the accounts service accepts it.
 *
 * Required beyond what the SDK's type marks (our choice, documented in docs/accounts.md):
 * - `business_type` (what the SDKs send) or `business_code` (the spec's array): either is enough;
 * - INDIVIDUAL: `expected_activity` and `proof_documents.proof_of_address` (wire-compat 10.3: "needed for
 *   INDIVIDUAL");
 * - COMPANY with `inherit: -1` (do not inherit the master's profile): `company_info`.
 * `company_info` and `individual_info` are optional as the SDK types them (its minimal create sends
 * `{business_type, entity_type, nickname, inherit}`); a sub-account created without them takes the
 * master's profile (sub-account.mapper.ts). When present they are complete: company_info with
 * legal_business_name, legal_business_name_english, country_of_incorporation, company_type, phone_number,
 * email_address, company_registration_number; individual_info with names, nationality, date_of_birth,
 * email, phone and residence address. Everything else is optional but validated when present; unknown
 * fields are refused.
 */
export const ENTITY_TYPES = ['COMPANY', 'INDIVIDUAL'] as const satisfies readonly EntityType[];
export const COMPANY_TYPES = ['SOLE_PROPRIETOR', 'LIMITED_COMPANY', 'PARTNERSHIP'] as const;
export const IDENTIFICATION_TYPES = ['PASSPORT', 'NATIONAL_ID', 'DRIVING_LICENSE'] as const;
export const EMPLOYMENT_STATUSES = [
  'Employed',
  'Self-Employed',
  'Unemployed',
  'Student',
  'Retired',
  'Homemaker',
  'Other',
] as const;

/** Only a COMPANY that refuses the master's profile must bring its own. */
const isCompanyNotInheriting = (body: Record<string, unknown>) => body.entity_type === 'COMPANY' && body.inherit === -1;
const isIndividual = (body: Record<string, unknown>) => body.entity_type === 'INDIVIDUAL';

export class CompanyInfoDto {
  @Text() legal_business_name!: string;
  @Text() legal_business_name_english!: string;
  @Country() country_of_incorporation!: string;
  @IsIn(COMPANY_TYPES) company_type!: (typeof COMPANY_TYPES)[number];
  @Phone() phone_number!: string;
  @Email() email_address!: string;
  @Text({ max: 64 }) company_registration_number!: string;
  @Text({ optional: true, max: 64 }) tax_type?: string;
  @Text({ optional: true, max: 64 }) tax_number?: string;
  /** Spelled so by the SDKs. */
  @DateOnly({ optional: true }) incorparate_date?: string;
  @DocumentList({ optional: true }) certification_of_incorporation?: string[];
}

export class AddressDto {
  @Text() street_address!: string;
  @Text({ optional: true }) apartment_suite_or_floor?: string;
  @Text({ max: 100 }) city!: string;
  @Text({ optional: true, max: 100 }) state?: string;
  @Text({ max: 20 }) postal_code!: string;
  @Country({ optional: true }) country?: string;
}

export class IndividualInfoDto {
  @Text({ max: 100 }) first_name_english!: string;
  @Text({ max: 100 }) last_name_english!: string;
  @Text({ optional: true }) name_in_other_language?: string;
  @Country() nationality!: string;
  @Text({ optional: true, max: 64 }) tax_number?: string;
  @Phone() phone_number!: string;
  @Email() email_address!: string;
  @DateOnly() date_of_birth!: string;
  @IsOptional() @IsIn(['MALE', 'FEMALE']) gender?: 'MALE' | 'FEMALE';
  @Country() country_or_territory!: string;
  @Text() street_address!: string;
  @Text({ optional: true }) apartment_suite_or_floor?: string;
  @Text({ max: 100 }) city!: string;
  @Text({ optional: true, max: 100 }) state?: string;
  @Text({ max: 20 }) postal_code!: string;
  @IsOptional() @IsIn(EMPLOYMENT_STATUSES) employment_status?: (typeof EMPLOYMENT_STATUSES)[number];
  @Text({ optional: true }) industry?: string;
  @Text({ optional: true }) job_title?: string;
  @Text({ optional: true }) company_name?: string;
  /** In USD, as the SDK's type says (a string such as "50000"). */
  @Text({ optional: true, max: 32 }) annual_income?: string;
}

export class IdentityVerificationDto {
  @IsIn(IDENTIFICATION_TYPES) identification_type!: (typeof IDENTIFICATION_TYPES)[number];
  @Text({ max: 64 }) identification_value!: string;
  @DocumentList({ optional: true }) identity_docs?: string[];
  @DocumentList({ optional: true }) face_docs?: string[];
}

export class OtherDocumentDto {
  @Text({ max: 64 }) type!: string;
  @Text({ max: 1_000_000 }) doc_str!: string;
}

export class RepresentativeDto {
  @Text({ max: 100 }) legal_first_name_english!: string;
  @Text({ max: 100 }) legal_last_name_english!: string;
  @Text({ optional: true }) name_in_other_language?: string;
  @Email() email_address!: string;
  @IsIn(['0', '1']) is_applicant!: '0' | '1';
  @Text({ max: 100 }) job_title!: string;
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(100) ownership_percentage?: number;
  @Country() nationality!: string;
  @Text({ optional: true, max: 64 }) tax_number?: string;
  @Phone() phone_number!: string;
  @DateOnly() date_of_birth!: string;
  @Country() country_or_territory!: string;
  @Text() street_address!: string;
  @Text({ max: 100 }) city!: string;
  @Text({ optional: true, max: 100 }) state?: string;
  @Text({ optional: true }) apartment_suite_or_floor?: string;
  @Text({ max: 20 }) postal_code!: string;
  @IsIn(IDENTIFICATION_TYPES) identification_type!: (typeof IDENTIFICATION_TYPES)[number];
  @Text({ max: 64 }) identification_value!: string;
  @DocumentList() identity_docs!: string[];
  @NestedList(() => OtherDocumentDto, { optional: true }) other_documents?: OtherDocumentDto[];
}

export class OwnershipDetailsDto {
  @NestedList(() => RepresentativeDto, { optional: true }) representatives?: RepresentativeDto[];
  @DocumentList({ optional: true }) shareholder_docs?: string[];
}

export class BusinessDetailsDto {
  @Country() country_or_territory!: string;
  @Text() street_address!: string;
  @Text({ max: 100 }) city!: string;
  @Text({ optional: true, max: 100 }) state?: string;
  @Text({ max: 20 }) postal_code!: string;
  @Text({ max: 100 }) industry!: string;
  /** Turnover band code such as TM001. */
  @Text({ optional: true, max: 16 }) turnover_monthly?: string;
  /** Head-count band code such as BS001. */
  @Text({ optional: true, max: 16 }) number_of_employee?: string;
  @IsOptional() @IsUrl({ require_protocol: false }) website_url?: string;
  @Text({ optional: true, max: 2000 }) company_description?: string;
  @TextList() account_purpose?: string[];
  @CurrencyList() banking_currencies?: string[];
  @CountryList() banking_countries?: string[];
}

export class ExpectedActivityDto {
  @TextList() account_purpose?: string[];
  /** Free text when account_purpose holds OTHERS. */
  @Text({ optional: true, max: 500 }) other_purpose?: string;
  @CountryList() banking_countries?: string[];
  @CurrencyList() banking_currencies?: string[];
  @IsOptional() @IsIn([0, 1]) internationally?: 0 | 1;
  @Text({ optional: true, max: 16 }) turnover_monthly?: string;
  @IsOptional() @IsISO4217CurrencyCode() turnover_monthly_currency?: string;
}

export class ProofDocumentsDto {
  @DocumentList() proof_of_address!: string[];
  @DocumentList({ optional: true }) source_of_funds?: string[];
  @DocumentList({ optional: true }) proof_of_position_and_income?: string[];
  @DocumentList({ optional: true }) other_proof?: string[];
}

export class AdditionalDocumentDto {
  @Text({ max: 64 }) profile_key!: string;
  @Text({ max: 1_000_000 }) doc_str!: string;
}

export class AdditionalDocumentsDto {
  @NestedList(() => AdditionalDocumentDto, { optional: true }) required_docs?: AdditionalDocumentDto[];
  @NestedList(() => AdditionalDocumentDto, { optional: true }) option_docs?: AdditionalDocumentDto[];
}

export class TosAcceptanceDto {
  @IsIP() ip!: string;
  @IsISO8601({ strict: true }) date!: string;
  @Text({ max: 512 }) user_agent!: string;
}

export class CreateSubAccountDto {
  /** Deprecated by the spec (2025-12-26) but what the official SDKs send. */
  @RequiredWhen((body) => body.business_code === undefined, 'unless business_code is given')
  @IsIn(BUSINESS_CODES)
  business_type?: BusinessCode;

  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(BUSINESS_CODES, { each: true })
  business_code?: BusinessCode[];

  /** The variant rules (subAccountCrossFieldProblems) hinge on the entity type. */
  @IsIn(ENTITY_TYPES)
  @CrossFieldRules(subAccountCrossFieldProblems)
  entity_type!: EntityType;
  @Text({ optional: true, max: 100 }) nickname?: string;
  /** 1: inherit the master's KYB profile; -1: do not. */
  @IsOptional() @IsIn([1, -1]) inherit?: 1 | -1;

  @RequiredWhen(isCompanyNotInheriting, 'when entity_type is COMPANY and inherit is -1')
  @Nested(() => CompanyInfoDto)
  company_info?: CompanyInfoDto;

  @Nested(() => AddressDto, { optional: true }) company_address?: AddressDto;

  @Nested(() => IndividualInfoDto, { optional: true }) individual_info?: IndividualInfoDto;

  @Nested(() => IdentityVerificationDto, { optional: true }) identity_verification?: IdentityVerificationDto;
  @Nested(() => OwnershipDetailsDto, { optional: true }) ownership_details?: OwnershipDetailsDto;
  @Nested(() => BusinessDetailsDto, { optional: true }) business_details?: BusinessDetailsDto;

  @RequiredWhen(isIndividual, 'when entity_type is INDIVIDUAL')
  @Nested(() => ExpectedActivityDto)
  expected_activity?: ExpectedActivityDto;

  @RequiredWhen(isIndividual, 'when entity_type is INDIVIDUAL')
  @Nested(() => ProofDocumentsDto)
  proof_documents?: ProofDocumentsDto;

  @Nested(() => AdditionalDocumentsDto, { optional: true }) additional_documents?: AdditionalDocumentsDto;
  @Nested(() => TosAcceptanceDto, { optional: true }) tos_acceptance?: TosAcceptanceDto;
}

/**
 * Rules across fields that decorators cannot say clearly (applied through @CrossFieldRules on
 * entity_type). Returns the problems, worded like the field rules; an empty list means the body is
 * consistent.
 */
export function subAccountCrossFieldProblems(body: CreateSubAccountDto): string[] {
  const problems: string[] = [];
  if (body.entity_type === 'COMPANY' && body.individual_info !== undefined) {
    problems.push('individual_info: is not allowed when entity_type is COMPANY');
  }
  if (body.entity_type === 'INDIVIDUAL') {
    if (body.company_info !== undefined) problems.push('company_info: is not allowed when entity_type is INDIVIDUAL');
    const codes = requestedBusinessCodes(body);
    if (codes.some((code) => code !== 'BANKING')) {
      problems.push('entity_type INDIVIDUAL is only available for business_code BANKING');
    }
  }
  return problems;
}

/** business_code and business_type together name the account's business codes (the array's order first). */
export function requestedBusinessCodes(body: Pick<CreateSubAccountDto, 'business_type' | 'business_code'>): BusinessCode[] {
  const codes = [...(body.business_code ?? []), ...(body.business_type ? [body.business_type] : [])];
  return [...new Set(codes)];
}
