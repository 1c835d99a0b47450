import { uuidV4 } from '@paygrid/ids';
import { Account, JsonObject, Representative } from './account.types';
import { NewAccount } from './account.repository';
import {
  AccountAddress,
  AccountDocument,
  AddressDto,
  BusinessDetailsDto,
  CompanyInfoDto,
  CreateSubAccountDto,
  IndividualInfoDto,
  RepresentativeDto,
  requestedBusinessCodes,
} from '@paygrid/contracts';

/**
 * Request → account model: the create-sub-account body (wire-compat 10.3, the SDKs' vocabulary) is
 * mapped onto the Account object of spec 2.10 (the API's vocabulary), e.g. company_info →
 * business_details, company_address → registration_address, business_details' address →
 * business_address, ownership_details.representatives → representatives. Onboarding answers the
 * Account object has no field for are kept in onboarding_details for the review.
 */
export const DEFAULT_CAPTURE_WINDOW_HOURS = 24;

export function toNewAccount(body: CreateSubAccountDto, master: Account): NewAccount {
  const common = {
    accountId: uuidV4(),
    parentAccountId: master.accountId,
    businessCode: requestedBusinessCodes(body),
    status: 'PROCESSING' as const,
    verificationStatus: 'PENDING' as const,
    reviewReason: null,
    nickname: body.nickname ?? null,
    tosAcceptance: body.tos_acceptance ? { ...body.tos_acceptance } : null,
    captureWindowHours: DEFAULT_CAPTURE_WINDOW_HOURS,
    onboardingDetails: onboardingDetails(body),
  };
  if (body.entity_type === 'INDIVIDUAL') {
    const person = body.individual_info;
    if (!person) return { ...common, ...individualWithoutPersonDetails(body, master) };
    return {
      ...common,
      entityType: 'INDIVIDUAL',
      email: person.email_address,
      accountName: `${person.first_name_english} ${person.last_name_english}`,
      country: person.country_or_territory.toUpperCase(),
      contactDetails: { email: person.email_address, phone: person.phone_number },
      businessDetails: null,
      personDetails: personDetails(person),
      registrationAddress: null,
      residentialAddress: toAddress(person, person.country_or_territory),
      businessAddress: [],
      representatives: [],
      documents: individualDocuments(body),
    };
  }
  const company = body.company_info;
  if (!company) return { ...common, ...companyInheritingFrom(master, body) };
  return {
    ...common,
    entityType: 'COMPANY',
    email: company.email_address,
    accountName: company.legal_business_name_english,
    country: company.country_of_incorporation.toUpperCase(),
    contactDetails: { email: company.email_address, phone: company.phone_number },
    businessDetails: businessDetails(company, body.business_details),
    personDetails: null,
    registrationAddress: body.company_address ? toAddress(body.company_address, body.company_address.country) : null,
    residentialAddress: null,
    businessAddress: body.business_details ? [toAddress(body.business_details, body.business_details.country_or_territory)] : [],
    representatives: (body.ownership_details?.representatives ?? []).map(toRepresentative),
    documents: companyDocuments(body),
  };
}

/** An INDIVIDUAL created without individual_info: the master's contact until person details arrive. */
function individualWithoutPersonDetails(body: CreateSubAccountDto, master: Account) {
  return {
    entityType: 'INDIVIDUAL' as const,
    email: master.email,
    accountName: body.nickname ?? master.accountName,
    country: master.country,
    contactDetails: { ...master.contactDetails },
    businessDetails: null,
    personDetails: null,
    registrationAddress: null,
    residentialAddress: null,
    businessAddress: [],
    representatives: [],
    documents: individualDocuments(body),
  };
}

/** A COMPANY created without company_info takes its master's profile; what the body gives wins. */
function companyInheritingFrom(master: Account, body: CreateSubAccountDto) {
  return {
    entityType: 'COMPANY' as const,
    email: master.email,
    accountName: master.accountName,
    country: master.country,
    contactDetails: { ...master.contactDetails },
    businessDetails: master.businessDetails ? { ...master.businessDetails } : null,
    personDetails: null,
    registrationAddress: body.company_address
      ? toAddress(body.company_address, body.company_address.country)
      : master.registrationAddress,
    residentialAddress: null,
    businessAddress: body.business_details
      ? [toAddress(body.business_details, body.business_details.country_or_territory)]
      : [...master.businessAddress],
    representatives: body.ownership_details?.representatives
      ? body.ownership_details.representatives.map(toRepresentative)
      : [...master.representatives],
    documents: companyDocuments(body),
  };
}

function businessDetails(company: CompanyInfoDto, business: BusinessDetailsDto | undefined): JsonObject {
  return compact({
    legal_entity_name: company.legal_business_name,
    legal_entity_name_english: company.legal_business_name_english,
    incorporation_date: company.incorparate_date,
    registration_number: company.company_registration_number,
    business_structure: company.company_type,
    product_description: business?.company_description,
    merchant_category_code: business?.industry,
    estimated_worker_count: business?.number_of_employee,
    monthly_estimated_revenue: business?.turnover_monthly ? { amount: business.turnover_monthly, currency: 'USD' } : undefined,
    account_purpose: business?.account_purpose,
    identifier: company.tax_number ? compact({ type: company.tax_type, number: company.tax_number }) : undefined,
    website_url: business?.website_url,
  });
}

function personDetails(person: IndividualInfoDto): JsonObject {
  return compact({
    first_name: person.first_name_english,
    last_name: person.last_name_english,
    name_in_other_language: person.name_in_other_language,
    nationality: person.nationality.toUpperCase(),
    date_of_birth: person.date_of_birth,
    gender: person.gender,
    tax_number: person.tax_number,
    employment_status: person.employment_status,
    industry: person.industry,
    job_title: person.job_title,
    company_name: person.company_name,
    annual_income: person.annual_income,
  });
}

/** The SDKs' address vocabulary (company, individual, representative, business) → the spec's. */
type AddressParts = Pick<AddressDto, 'street_address' | 'apartment_suite_or_floor' | 'city' | 'state' | 'postal_code'>;

function toAddress(address: AddressParts, country: string | undefined): AccountAddress {
  return compact({
    line1: address.street_address,
    line2: address.apartment_suite_or_floor,
    city: address.city,
    state: address.state,
    postal_code: address.postal_code,
    country: country?.toUpperCase(),
  });
}

function toRepresentative(dto: RepresentativeDto): Representative {
  const roles = [dto.job_title.toUpperCase()];
  if (dto.is_applicant === '1') roles.push('APPLICANT');
  if ((dto.ownership_percentage ?? 0) > 0) roles.push('OWNER');
  const [front, back] = dto.identity_docs;
  return compact({
    representative_id: uuidV4(),
    roles,
    first_name: dto.legal_first_name_english,
    last_name: dto.legal_last_name_english,
    name_in_other_language: dto.name_in_other_language,
    email: dto.email_address,
    phone: dto.phone_number,
    job_title: dto.job_title,
    nationality: dto.nationality.toUpperCase(),
    date_of_birth: dto.date_of_birth,
    tax_number: dto.tax_number,
    identification: { type: dto.identification_type, id_number: dto.identification_value, documents: compact({ front, back }) },
    residential_address: toAddress(dto, dto.country_or_territory),
    as_applicant: dto.is_applicant === '1',
    share_percentage: dto.ownership_percentage === undefined ? undefined : String(dto.ownership_percentage),
    other_documents: (dto.other_documents ?? []).map((doc) => ({ type: doc.type, front: doc.doc_str })),
  });
}

function companyDocuments(body: CreateSubAccountDto): AccountDocument[] {
  return [
    ...documentsOfType('CERTIFICATE_OF_INCORPORATION', body.company_info?.certification_of_incorporation),
    ...documentsOfType('SHAREHOLDER_REGISTER', body.ownership_details?.shareholder_docs),
    ...identityDocuments(body),
    ...additionalDocuments(body),
  ];
}

function individualDocuments(body: CreateSubAccountDto): AccountDocument[] {
  const proofs = body.proof_documents;
  return [
    ...identityDocuments(body),
    ...documentsOfType('FACE_PHOTO', body.identity_verification?.face_docs),
    ...documentsOfType('PROOF_OF_ADDRESS', proofs?.proof_of_address),
    ...documentsOfType('SOURCE_OF_FUNDS', proofs?.source_of_funds),
    ...documentsOfType('PROOF_OF_POSITION_AND_INCOME', proofs?.proof_of_position_and_income),
    ...documentsOfType('OTHER', proofs?.other_proof),
    ...additionalDocuments(body),
  ];
}

/** An identity document is one record with its front and back pages. */
function identityDocuments(body: CreateSubAccountDto): AccountDocument[] {
  const identity = body.identity_verification;
  const [front, back] = identity?.identity_docs ?? [];
  if (!identity || front === undefined) return [];
  return [compact({ type: identity.identification_type, front, back })];
}

function additionalDocuments(body: CreateSubAccountDto): AccountDocument[] {
  const docs = [...(body.additional_documents?.required_docs ?? []), ...(body.additional_documents?.option_docs ?? [])];
  return docs.map((doc) => ({ type: doc.profile_key, front: doc.doc_str }));
}

function documentsOfType(type: string, documents: string[] | undefined): AccountDocument[] {
  return (documents ?? []).map((front) => ({ type, front }));
}

function onboardingDetails(body: CreateSubAccountDto): JsonObject {
  return compact({
    inherit: body.inherit,
    identity_verification: body.identity_verification
      ? { identification_type: body.identity_verification.identification_type, identification_value: body.identity_verification.identification_value }
      : undefined,
    expected_activity: body.expected_activity ? { ...body.expected_activity } : undefined,
    banking_currencies: body.business_details?.banking_currencies,
    banking_countries: body.business_details?.banking_countries,
  });
}

/** Drops undefined members so stored documents hold only what was given. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
