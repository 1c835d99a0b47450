import { RequiredField } from '@paygrid/contracts';
import { IDENTITY_FILES } from './cardholder.rules';
import { Cardholder } from './cardholder.types';

/**
 * Which of a product's required fields (spec 2.7 required_fields) a cardholder lacks, in the product's own
 * shape, for the `missing_fields` of kyc_insufficient and friends. An object field is missing when one of its
 * required sub-fields is; identity files count for the identity type on file.
 */
export function missingFields(cardholder: Cardholder, required: RequiredField[]): RequiredField[] {
  const missing: RequiredField[] = [];
  for (const field of required) {
    if (!field.required) continue;
    if (field.type === 'string') {
      if (!hasText(valueOf(cardholder, field.name))) missing.push(field);
      continue;
    }
    const lacking = missingSubFields(cardholder, field);
    if (lacking.length > 0) missing.push({ ...field, fields: lacking });
  }
  return missing;
}

function missingSubFields(cardholder: Cardholder, field: RequiredField): RequiredField[] {
  const sub = field.fields ?? [];
  if (field.name === 'identity') {
    const identity = cardholder.identity;
    if (!identity) return sub.filter((item) => item.required);
    const files = IDENTITY_FILES[identity.type as keyof typeof IDENTITY_FILES] ?? [];
    return sub.filter((item) =>
      item.name === 'type' || item.name === 'number'
        ? !hasText(identity[item.name])
        : (files as string[]).includes(item.name) && !identity.files.includes(item.name),
    );
  }
  const value = valueOf(cardholder, field.name) as Record<string, unknown> | null;
  return sub.filter((item) => item.required && !hasText(value?.[item.name]));
}

const FIELD_OF: Record<string, keyof Cardholder> = {
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  country_code: 'countryCode',
  phone_number: 'phoneNumber',
  date_of_birth: 'dateOfBirth',
  gender: 'gender',
  nationality: 'nationality',
  residential_address: 'residentialAddress',
  delivery_address: 'deliveryAddress',
  identity: 'identity',
};

function valueOf(cardholder: Cardholder, name: string): unknown {
  const key = FIELD_OF[name];
  return key === undefined ? undefined : cardholder[key];
}

function hasText(value: unknown): boolean {
  return (typeof value === 'string' && value.trim() !== '') || (typeof value === 'object' && value !== null);
}
