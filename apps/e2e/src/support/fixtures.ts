/** Request bodies the e2e suites share. */
export const companySubAccount = (nickname: string) => ({
  business_type: 'ACQUIRING',
  entity_type: 'COMPANY',
  nickname,
  inherit: 1,
  company_info: {
    legal_business_name: `${nickname} Pte Ltd`,
    legal_business_name_english: `${nickname} Pte Ltd`,
    country_of_incorporation: 'SG',
    company_type: 'LIMITED_COMPANY',
    phone_number: '6561234567',
    email_address: `${nickname.toLowerCase().replace(/\W/g, '')}@example.com`,
    company_registration_number: '201912345K',
    incorparate_date: '2019-05-01',
    certification_of_incorporation: ['file_cert_1'],
  },
  company_address: { street_address: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG' },
});
