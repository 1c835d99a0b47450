import { AdditionalDocument, BusinessCode } from '@paygrid/contracts';

/**
 * What GET /v1/accounts/get_additional answers (wire-compat 10.1: a bare array of
 * `{profile_key, profile_name, profile_option}`, 1 = required, 0 = optional). The spec gives no
 * table, so this is ours (docs/accounts.md mirrors it): a per-country list of the local registry
 * documents, plus what each business line needs on top. Countries without a row get the default.
 * Clients send these profile keys back in create sub-account's `additional_documents`.
 */
type Entry = readonly [profileKey: string, profileName: string, required: boolean];

const REQUIRED = true;
const OPTIONAL = false;

export const DEFAULT_COUNTRY_DOCUMENTS: readonly Entry[] = [
  ['CERTIFICATE_OF_INCORPORATION', 'Certificate of incorporation', REQUIRED],
  ['PROOF_OF_BUSINESS_ADDRESS', 'Proof of business address (issued within 3 months)', REQUIRED],
  ['REGISTER_OF_DIRECTORS', 'Register of directors', OPTIONAL],
];

export const COUNTRY_DOCUMENTS: Readonly<Record<string, readonly Entry[]>> = {
  SG: [
    ['ACRA_BIZFILE', 'ACRA BizFile business profile', REQUIRED],
    ['CONSTITUTION', 'Company constitution', OPTIONAL],
  ],
  HK: [
    ['BUSINESS_REGISTRATION_CERTIFICATE', 'Business Registration Certificate', REQUIRED],
    ['CERTIFICATE_OF_INCORPORATION', 'Certificate of incorporation', REQUIRED],
    ['NAR1_ANNUAL_RETURN', 'Annual return (NAR1)', OPTIONAL],
  ],
  US: [
    ['ARTICLES_OF_INCORPORATION', 'Articles of incorporation or organization', REQUIRED],
    ['EIN_CONFIRMATION_LETTER', 'IRS EIN confirmation letter (CP 575 or 147C)', REQUIRED],
    ['CERTIFICATE_OF_GOOD_STANDING', 'Certificate of good standing', OPTIONAL],
  ],
  GB: [
    ['COMPANIES_HOUSE_EXTRACT', 'Companies House company extract', REQUIRED],
    ['PERSONS_WITH_SIGNIFICANT_CONTROL', 'Register of persons with significant control', OPTIONAL],
  ],
  AU: [
    ['ASIC_COMPANY_EXTRACT', 'ASIC current company extract', REQUIRED],
    ['ABN_REGISTRATION', 'ABN registration details', OPTIONAL],
  ],
  CN: [
    ['BUSINESS_LICENSE', 'Business licence (营业执照)', REQUIRED],
    ['LEGAL_REPRESENTATIVE_ID', 'ID card of the legal representative', REQUIRED],
    ['ARTICLES_OF_ASSOCIATION', 'Articles of association', OPTIONAL],
  ],
};

export const BUSINESS_CODE_DOCUMENTS: Readonly<Record<BusinessCode, readonly Entry[]>> = {
  BANKING: [['SOURCE_OF_FUNDS', 'Source of funds declaration', OPTIONAL]],
  ACQUIRING: [
    ['WEBSITE_TERMS_AND_REFUND_POLICY', 'Website terms and refund policy', REQUIRED],
    ['PROCESSING_HISTORY', 'Card processing statements of the last 3 months', OPTIONAL],
  ],
  ISSUING: [['CARD_PROGRAM_DESCRIPTION', 'Card programme description and use of cards', REQUIRED]],
  RAMP: [
    ['AML_POLICY', 'Anti-money-laundering policy', REQUIRED],
    ['VIRTUAL_ASSET_LICENSE', 'Virtual asset service provider licence', OPTIONAL],
  ],
};

/** The documents for a country (ISO alpha-2, any case) and business line: country first, then line. */
export function additionalDocumentsFor(country: string, businessCode: BusinessCode): AdditionalDocument[] {
  const countryDocuments = COUNTRY_DOCUMENTS[country.toUpperCase()] ?? DEFAULT_COUNTRY_DOCUMENTS;
  return [...countryDocuments, ...BUSINESS_CODE_DOCUMENTS[businessCode]].map(([profileKey, profileName, required]) => ({
    profile_key: profileKey,
    profile_name: profileName,
    profile_option: required ? 1 : 0,
  }));
}
