import { BUSINESS_CODES } from '@paygrid/contracts';
import {
  additionalDocumentsFor,
  BUSINESS_CODE_DOCUMENTS,
  COUNTRY_DOCUMENTS,
  DEFAULT_COUNTRY_DOCUMENTS,
} from './additional-documents.table';

describe('additionalDocumentsFor', () => {
  it('answers the SDK shape: profile_key, profile_name and profile_option 0 or 1', () => {
    const documents = additionalDocumentsFor('SG', 'BANKING');
    expect(documents[0]).toEqual({ profile_key: 'ACRA_BIZFILE', profile_name: 'ACRA BizFile business profile', profile_option: 1 });
    for (const document of documents) expect([0, 1]).toContain(document.profile_option);
  });

  it('lists the country’s documents first, then the business line’s', () => {
    const keys = additionalDocumentsFor('US', 'ACQUIRING').map((document) => document.profile_key);
    expect(keys).toEqual([
      'ARTICLES_OF_INCORPORATION',
      'EIN_CONFIRMATION_LETTER',
      'CERTIFICATE_OF_GOOD_STANDING',
      'WEBSITE_TERMS_AND_REFUND_POLICY',
      'PROCESSING_HISTORY',
    ]);
  });

  it('falls back to the default list for a country without its own row', () => {
    const keys = additionalDocumentsFor('FR', 'ISSUING').map((document) => document.profile_key);
    expect(keys).toEqual([...DEFAULT_COUNTRY_DOCUMENTS.map(([key]) => key), 'CARD_PROGRAM_DESCRIPTION']);
  });

  it('accepts the country in any case', () => {
    expect(additionalDocumentsFor('hk', 'RAMP')).toEqual(additionalDocumentsFor('HK', 'RAMP'));
  });

  it('has a row for SG, HK, US, GB, AU and CN, each with at least one required document', () => {
    expect(Object.keys(COUNTRY_DOCUMENTS).sort()).toEqual(['AU', 'CN', 'GB', 'HK', 'SG', 'US']);
    for (const entries of Object.values(COUNTRY_DOCUMENTS)) expect(entries.some(([, , required]) => required)).toBe(true);
  });

  it('has an entry for every business code and no duplicate keys in any answer', () => {
    for (const code of BUSINESS_CODES) {
      expect(BUSINESS_CODE_DOCUMENTS[code].length).toBeGreaterThan(0);
      for (const country of [...Object.keys(COUNTRY_DOCUMENTS), 'ZZ']) {
        const keys = additionalDocumentsFor(country, code).map((document) => document.profile_key);
        expect(new Set(keys).size).toBe(keys.length);
      }
    }
  });
});
