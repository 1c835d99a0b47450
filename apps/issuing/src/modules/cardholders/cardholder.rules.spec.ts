import { ApiError } from '@paygrid/platform';
import { checkDateOfBirth, checkDeliveryAddress, checkFile, checkIdentity, checkKycVerification, checkName, normalisePhone } from './cardholder.rules';

const codeOf = (value: unknown) => (value instanceof ApiError ? (value.body as { code: string }).code : undefined);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
const PDF = Buffer.from('%PDF-1.4 test').toString('base64');

describe('cardholder rules', () => {
  it.each(['Ada', 'Mary Ann', 'De La Cruz'])('accepts the name %p', (name) => {
    expect(checkName('first_name', name)).toBeUndefined();
  });
  it.each([' Ada', 'Ada ', 'Zoë', 'Ada1', 'O\'Brien', ''])('refuses the name %p', (name) => {
    expect(codeOf(checkName('last_name', name))).toBe('invalid_last_name');
  });

  it('needs a real date and 18 years', () => {
    const today = new Date('2026-06-15T12:00:00Z');
    expect(checkDateOfBirth('2008-06-15', today)).toBeUndefined();
    expect(codeOf(checkDateOfBirth('2008-06-16', today))).toBe('invalid_date_of_birth');
    expect(codeOf(checkDateOfBirth('1990-02-30', today))).toBe('invalid_date_of_birth');
    expect(codeOf(checkDateOfBirth('15/06/1990', today))).toBe('invalid_date_of_birth');
  });

  it('takes an alpha-2 country or a calling code, with or without +, and stores E.164', () => {
    expect(normalisePhone('SG', '+6581234567')).toEqual({ countryCode: 'SG', phoneNumber: '+6581234567' });
    expect(normalisePhone('SG', '81234567')).toEqual({ countryCode: 'SG', phoneNumber: '+6581234567' });
    expect(normalisePhone('65', '81234567')).toEqual({ countryCode: '65', phoneNumber: '+6581234567' });
    expect(normalisePhone('+65', '6581234567')).toEqual({ countryCode: '65', phoneNumber: '+6581234567' });
    expect(normalisePhone('383', '44123456')).toEqual({ countryCode: '383', phoneNumber: '+38344123456' });
  });

  it.each([
    ['SG', '8123-4567'],
    ['SG', '+4481234567'],
    ['SG', '123'],
    ['Singapore', '81234567'],
    ['QQ', '81234567'],
  ])('refuses country %p with number %p', (country, number) => {
    expect(codeOf(normalisePhone(country, number))).toBe('invalid_phone_number');
  });

  it('needs every part of a delivery address with an ISO country', () => {
    const address = { country: 'SG', state: 'SG', city: 'Singapore', postal_code: '018989', line1: '1 Sandbox Way' };
    expect(checkDeliveryAddress(address)).toBeUndefined();
    expect(codeOf(checkDeliveryAddress({ ...address, state: undefined }))).toBe('invalid_delivery_address');
    expect(codeOf(checkDeliveryAddress({ ...address, country: 'Singapore' }))).toBe('invalid_delivery_address');
  });

  it('reads files as strict base64 of PDF, PNG or JPEG under 2 MB', () => {
    expect(checkFile('document', PNG, 'png')).toMatchObject({ kind: 'png' });
    expect(checkFile('document', PDF)).toMatchObject({ kind: 'pdf' });
    expect(codeOf(checkFile('document', `data:image/png;base64,${PNG}`))).toBe('invalid_file_content');
    expect(codeOf(checkFile('document', `${PNG.slice(0, 8)}\n${PNG.slice(8)}`))).toBe('invalid_file_content');
    expect(codeOf(checkFile('document', Buffer.from('GIF89a....').toString('base64')))).toBe('file_type_not_supported');
    expect(codeOf(checkFile('document', PNG, 'gif'))).toBe('file_type_not_supported');
    expect(codeOf(checkFile('document', PNG, 'pdf'))).toBe('file_type_not_supported');
    const big = Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(2 * 1024 * 1024)]).toString('base64');
    expect(codeOf(checkFile('document', big))).toBe('document_size_exceeded');
  });

  it('needs the identity type, its files and a date of birth', () => {
    expect(checkIdentity({ type: 'PASSPORT', number: 'E1234567', hand_file: PNG }, true)).toBeUndefined();
    expect(codeOf(checkIdentity({ type: 'LICENCE', number: '1' }, true))).toBe('invalid_identity_type');
    expect(codeOf(checkIdentity({ type: 'ID_CARD', number: 'S1', front_file: PNG }, true))).toBe('identity_file_missing');
    expect(codeOf(checkIdentity({ type: 'PASSPORT', number: 'E1', hand_file: PNG }, false))).toBe('missing_date_of_birth');
  });

  it('checks the KYC method and what it needs', () => {
    expect(codeOf(checkKycVerification({ method: 'VIDEO' }, 'SG'))).toBe('invalid_kyc_method');
    expect(codeOf(checkKycVerification({ method: 'THIRD_PARTY' }, 'SG'))).toBe('kyc_proof_required');
    expect(codeOf(checkKycVerification({ method: 'SUMSUB_REDIRECT' }, '65'))).toBe('missing_country_code');
    expect(codeOf(checkKycVerification({ method: 'SUMSUB_REDIRECT', reference_id: 'short' }, 'SG'))).toBe('reference_id_too_short');
    expect(checkKycVerification({ method: 'SUMSUB_REDIRECT', reference_id: 'ref-0000000001' }, 'SG')).toBeUndefined();
  });
});
