/**
 * kube-openapi's validation results: errors with the validator's codes and
 * message texts (`spec.replicas in body must be of type integer: "string"`),
 * and the match count its anyOf/oneOf use to pick which failing branch to
 * report. Errors with no code are the plain ones (junctor summaries, range
 * checks), which upstream reports at the validator's root path.
 */
import { goQuote } from '../managed-fields/go-values';

export type OpenAPICode =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'TooShort'
  | 'Pattern'
  | 'Enum'
  | 'MultipleOf'
  | 'Max'
  | 'Min'
  | 'Unique'
  | 'MaxItems'
  | 'MinItems'
  | 'TooFewProperties'
  | 'TooManyProperties'
  | 'UnallowedProperty'
  | 'MultipleOfMustBePositive';

export interface OpenAPIError {
  /** Undefined for plain errors. */
  code?: OpenAPICode;
  /** The value's path as the validator writes it (`spec.items[0].name`); "" at the root. */
  name: string;
  value?: unknown;
  /** The limit, for too-long and too-many errors. */
  valid?: number;
  /** The allowed values, for enum errors. */
  values?: unknown[];
  message: string;
}

export class Result {
  errors: OpenAPIError[] = [];
  matchCount = 0;

  /** Errors are kept once per message text, as upstream's AddErrors does. */
  add(...errs: OpenAPIError[]): this {
    for (const e of errs) if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
    return this;
  }

  merge(...others: Array<Result | undefined>): this {
    for (const o of others) {
      if (!o) continue;
      this.add(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  inc(): this {
    this.matchCount++;
    return this;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }

  static of(err: OpenAPIError): Result {
    return new Result().add(err);
  }
}

const at = (name: string) => `${name} in body`;

export const openAPIErrors = {
  invalidType: (name: string, typeName: string, value: string): OpenAPIError => ({
    code: 'InvalidType',
    name,
    value,
    message: `${at(name)} must be of type ${typeName}: ${goQuote(value)}`,
  }),
  required: (name: string): OpenAPIError => ({ code: 'Required', name, message: `${at(name)} is required` }),
  tooLong: (name: string, max: number, value: string): OpenAPIError => ({
    code: 'TooLong',
    name,
    value,
    valid: max,
    message: `${at(name)} should be at most ${max} chars long`,
  }),
  tooShort: (name: string, min: number, value: string): OpenAPIError => ({
    code: 'TooShort',
    name,
    value,
    valid: min,
    message: `${at(name)} should be at least ${min} chars long`,
  }),
  pattern: (name: string, pattern: string, value: string): OpenAPIError => ({ code: 'Pattern', name, value, message: `${at(name)} should match '${pattern}'` }),
  enum: (name: string, value: unknown, values: unknown[], shown: string): OpenAPIError => ({
    code: 'Enum',
    name,
    value,
    values,
    message: `${at(name)} should be one of ${shown}`,
  }),
  tooManyItems: (name: string, max: number, size: number): OpenAPIError => ({
    code: 'MaxItems',
    name,
    value: size,
    valid: max,
    message: `${at(name)} should have at most ${max} items`,
  }),
  tooFewItems: (name: string, min: number, size: number): OpenAPIError => ({
    code: 'MinItems',
    name,
    value: size,
    valid: min,
    message: `${at(name)} should have at least ${min} items`,
  }),
  duplicateItems: (name: string): OpenAPIError => ({ code: 'Unique', name, message: `${at(name)} shouldn't contain duplicates` }),
  tooManyProperties: (name: string, max: number, size: number): OpenAPIError => ({
    code: 'TooManyProperties',
    name,
    value: size,
    valid: max,
    message: `${at(name)} should have at most ${max} properties`,
  }),
  tooFewProperties: (name: string, min: number, size: number): OpenAPIError => ({
    code: 'TooFewProperties',
    name,
    value: size,
    valid: min,
    message: `${at(name)} should have at least ${min} properties`,
  }),
  plain: (message: string): OpenAPIError => ({ name: '', message }),
};

/** The junctor summaries, which name the path quoted (%q). */
export const junctorErrors = {
  anyOf: (path: string) => openAPIErrors.plain(`${goQuote(path)} must validate at least one schema (anyOf)`),
  oneOf: (path: string, found: string) => openAPIErrors.plain(`${goQuote(path)} must validate one and only one schema (oneOf). ${found}`),
  allOf: (path: string, found: string) => openAPIErrors.plain(`${goQuote(path)} must validate all the schemas (allOf)${found}`),
  not: (path: string) => openAPIErrors.plain(`${goQuote(path)} must not validate the schema (not)`),
};
