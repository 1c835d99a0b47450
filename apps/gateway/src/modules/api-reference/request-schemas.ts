import { Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { IS_IP, IS_ISO31661_ALPHA_2, IS_ISO4217_CURRENCY_CODE } from 'class-validator';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { IOptions } from 'class-validator-jsonschema/build/options';
import { CROSS_FIELD_RULES } from '@paygrid/contracts';
import { JsonSchema, SCHEMA_POINTER } from './json-schema';

/**
 * The JSON schemas of the request DTOs (bodies, queries, path parameters), derived from the very
 * class-validator rules the ValidationPipe enforces (via class-validator-jsonschema), so the reference
 * cannot promise what validation refuses, nor restate ~250 rules by hand on classes that libs/contracts
 * shares with the services. Unknown fields are refused (whitelist), hence `additionalProperties: false`.
 */
const OPTIONS: Partial<IOptions> = {
  refPointerPrefix: SCHEMA_POINTER,
  classTransformerMetadataStorage: defaultMetadataStorage,
  // Rules class-validator-jsonschema does not translate (or translates too narrowly) and our own.
  additionalConverters: {
    [IS_IP]: (meta: { constraints?: unknown[] }) =>
      meta.constraints?.[0] === undefined
        ? { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }
        : { type: 'string', format: `ipv${String(meta.constraints[0])}` },
    [IS_ISO31661_ALPHA_2]: { type: 'string', pattern: '^[A-Za-z]{2}$' },
    [IS_ISO4217_CURRENCY_CODE]: { type: 'string', pattern: '^[A-Z]{3}$' },
    // The shared field rules of libs/contracts (validation/field-rules.ts).
    isMetadata: { type: 'object', additionalProperties: { type: 'string' }, description: 'At most 512 bytes as JSON.' },
    isAmount: { type: 'string', pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$', description: 'A decimal string in the currency\'s minor-unit digits.' },
    isSupportedCurrency: { type: 'string', pattern: '^[A-Z]{3}$' },
    isDateOnly: { type: 'string', format: 'date' },
    isFlatStringMap: { type: 'object', additionalProperties: { type: 'string' } },
    isIssuingAmount: { type: 'number', minimum: 0, description: 'major units, at most 2 decimals' },
    // Rules across fields (libs/contracts CrossFieldRules) say nothing a one-field schema can hold.
    [CROSS_FIELD_RULES]: {},
  },
};

/** Every DTO class class-validator knows, by class name (nested bodies refer to each other by name). */
export function requestSchemas(): Record<string, JsonSchema> {
  const schemas = validationMetadatasToSchemas(OPTIONS) as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, closed(schema)]));
}

/** One DTO's schema, its base classes' fields included. */
export function requestSchemaOf(dto: Type<unknown>): JsonSchema {
  return { ...closed(targetConstructorToSchema(dto, OPTIONS) as JsonSchema), title: dto.name };
}

export interface RequestField {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** A flat DTO (query or path parameters) as one entry per field. */
export function requestFieldsOf(dto: Type<unknown>): RequestField[] {
  const schema = requestSchemaOf(dto);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => ({
    name,
    required: required.has(name),
    schema: property,
  }));
}

function closed(schema: JsonSchema): JsonSchema {
  return schema.type === 'object' ? { ...schema, additionalProperties: false } : schema;
}
