import { RequiredField, SANDBOX_POOL_BIN } from '@paygrid/contracts';
import { Product } from './product.types';

/**
 * The card products every account gets (spec 2.7 and its change notes; docs/issuing.md): a simple SHARE
 * product (virtual and physical, the sandbox pool's BIN), a strict SINGLE product on a BIN that requires
 * card_limit (spec 8), a SHARE product with small quotas, and a DISABLED one. Amounts in minor units.
 */
const text = (name: string, required = true, description?: string): RequiredField => ({
  name,
  type: 'string',
  required,
  ...(description ? { description } : {}),
});

export const SIMPLE_REQUIRED_FIELDS: RequiredField[] = [
  text('first_name'),
  text('last_name'),
  text('email'),
  text('country_code'),
  text('date_of_birth'),
  text('phone_number'),
];

export const STRICT_REQUIRED_FIELDS: RequiredField[] = [
  ...SIMPLE_REQUIRED_FIELDS,
  text('gender'),
  text('nationality'),
  {
    name: 'identity',
    type: 'object',
    required: true,
    fields: [
      text('type', true, 'ID_CARD or PASSPORT'),
      text('number'),
      text('front_file', false, 'required for ID_CARD'),
      text('back_file', false, 'required for ID_CARD'),
      text('hand_file', false, 'required for PASSPORT'),
    ],
  },
  {
    name: 'residential_address',
    type: 'object',
    required: true,
    fields: [
      text('country'),
      text('state', false),
      text('city'),
      text('district', false),
      text('line1'),
      text('line2', false),
      text('line_en', false),
      text('postal_code', false),
    ],
  },
];

/** A product as the catalogue defines it, before it belongs to an account. */
export type ProductDefinition = Omit<Product, 'productId' | 'accountId' | 'createdAt' | 'updatedAt'>;

const ALL_RISK_CONTROLS = ['allow_contactless', 'allow_atm', 'allow_online', 'enable_3ds'];

const STANDARD_SHARE: ProductDefinition = {
  catalogueKey: 'standard-share',
  modeType: 'SHARE',
  cardBin: SANDBOX_POOL_BIN,
  cardScheme: 'VISA',
  cardForms: ['VIR', 'PHY'],
  currencies: ['USD', 'SGD'],
  maxCardQuota: 100_000,
  maxCardsPerCardholder: 50,
  noPinCeilingsMinor: { USD: 30_000n, SGD: 40_000n },
  productStatus: 'ENABLED',
  kycLevel: 'SIMPLIFIED',
  requiredFields: SIMPLE_REQUIRED_FIELDS,
  cardLimitRequired: false,
  cardLimitMaxMinor: 100_000_000n,
  allowedRiskControls: ALL_RISK_CONTROLS,
  supportsCardArt: true,
  oneTimeRequiresExpiry: false,
  oneTimeMaxDays: 365,
};

export const PRODUCT_CATALOGUE: readonly ProductDefinition[] = [
  STANDARD_SHARE,
  {
    catalogueKey: 'premium-single',
    modeType: 'SINGLE',
    cardBin: '555243',
    cardScheme: 'MASTERCARD',
    cardForms: ['VIR', 'PHY'],
    currencies: ['USD', 'SGD'],
    maxCardQuota: 10_000,
    maxCardsPerCardholder: 5,
    noPinCeilingsMinor: { USD: 20_000n, SGD: 25_000n },
    productStatus: 'ENABLED',
    kycLevel: 'STANDARD',
    requiredFields: STRICT_REQUIRED_FIELDS,
    cardLimitRequired: true,
    cardLimitMaxMinor: 50_000_000n,
    allowedRiskControls: ['allow_contactless', 'allow_online'],
    supportsCardArt: false,
    oneTimeRequiresExpiry: true,
    oneTimeMaxDays: 30,
  },
  {
    catalogueKey: 'limited-share',
    modeType: 'SHARE',
    cardBin: '428852',
    cardScheme: 'VISA',
    cardForms: ['VIR'],
    currencies: ['USD'],
    maxCardQuota: 3,
    maxCardsPerCardholder: 2,
    noPinCeilingsMinor: { USD: 10_000n },
    productStatus: 'ENABLED',
    kycLevel: 'SIMPLIFIED',
    requiredFields: SIMPLE_REQUIRED_FIELDS,
    cardLimitRequired: false,
    cardLimitMaxMinor: 1_000_000n,
    allowedRiskControls: ALL_RISK_CONTROLS,
    supportsCardArt: true,
    oneTimeRequiresExpiry: false,
    oneTimeMaxDays: 90,
  },
  {
    ...STANDARD_SHARE,
    catalogueKey: 'retired-share',
    cardBin: '485932',
    maxCardQuota: 1000,
    maxCardsPerCardholder: 10,
    productStatus: 'DISABLED',
  },

];

/** The card arts every account starts with; the first is its default. */
export const CARD_ART_CATALOGUE = ['Classic', 'Midnight'] as const;
