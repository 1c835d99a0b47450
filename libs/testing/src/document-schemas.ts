import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Checks values against the schemas inside an API reference document (OpenAPI or AsyncAPI), addressed
 * by JSON pointer, so tests can hold a real response, command or event to what the document promises.
 * The document's schemas are JSON Schema (draft-07 keywords, plus OpenAPI's annotations, which are
 * ignored); `format`s are checked, an undeclared field fails wherever a schema closes its object.
 */
export class DocumentSchemas {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: object) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    // class-validator's IsUrl: any URL the validator accepts, scheme optional.
    this.ajv.addFormat('url', true);
    this.ajv.addSchema(document as Record<string, unknown>, 'document');
  }

  /** The problems of `value` against the schema at `pointer` (e.g. `#/components/schemas/PaymentIntentView`). */
  problems(pointer: string, value: unknown): string[] {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `document${pointer}` });
      this.compiled.set(pointer, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`);
  }
}

/** One segment of a JSON pointer (RFC 6901). */
export function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
