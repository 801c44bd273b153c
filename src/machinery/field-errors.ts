/**
 * Field errors as upstream renders them: `<path>: <Type>: <detail>`, with the
 * cause type that clients read from Status.details.causes.
 */

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueNotFound'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

const typeText: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueNotFound: 'Not found',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/** Types whose message shows the offending value, as upstream's ErrorBody does. */
const showsValue = new Set<FieldErrorType>([
  'FieldValueInvalid',
  'FieldValueNotSupported',
  'FieldValueDuplicate',
  'FieldValueNotFound',
  'FieldValueTypeInvalid',
]);

export const omitValue = Symbol('omitValue');

export interface FieldError {
  type: FieldErrorType;
  field: string;
  badValue?: unknown;
  detail?: string;
}

/** A dotted field path with `[i]` indices and `[key]` map keys, as upstream's field.Path. */
export class FieldPath {
  private constructor(private readonly text: string) {}
  static root(name: string): FieldPath {
    return new FieldPath(name);
  }
  child(...names: string[]): FieldPath {
    // Joined by hand: every request's validation calls this, and an array per call showed in profiles.
    let text = this.text;
    for (const name of names) if (name !== '') text = text === '' ? name : `${text}.${name}`;
    return new FieldPath(text);
  }
  index(i: number): FieldPath {
    return new FieldPath(`${this.text}[${i}]`);
  }
  key(k: string): FieldPath {
    return new FieldPath(`${this.text}[${k}]`);
  }
  toString(): string {
    return this.text;
  }
}

type P = FieldPath | string;
const s = (p: P) => p.toString();

export const fieldErrors = {
  required: (p: P, detail = ''): FieldError => ({ type: 'FieldValueRequired', field: s(p), detail }),
  invalid: (p: P, badValue: unknown, detail = ''): FieldError => ({ type: 'FieldValueInvalid', field: s(p), badValue, detail }),
  notSupported: (p: P, badValue: unknown, valid: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field: s(p),
    badValue,
    detail: valid.length ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '',
  }),
  duplicate: (p: P, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: s(p), badValue }),
  forbidden: (p: P, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: s(p), detail }),
  notFound: (p: P, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field: s(p), badValue }),
  tooLong: (p: P, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field: s(p),
    detail: `may not be more than ${maxLength} bytes`,
  }),
  tooLongCharacters: (p: P, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field: s(p),
    detail: `may not be more than ${maxLength} characters`,
  }),
  tooMany: (p: P, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field: s(p),
    detail: `must have at most ${max} items`,
    badValue: actual,
  }),
  typeInvalid: (p: P, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field: s(p), badValue, detail }),
  internal: (p: P, detail: string): FieldError => ({ type: 'InternalError', field: s(p), detail }),
};

/**
 * A bad value shown verbatim: for values upstream prints with %v/%#v of a Go
 * struct or time (e.g. `intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}`).
 */
export class RenderedValue {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

/** Renders a value the way Go's %v/%q do for the types our objects hold. */
export function renderValue(v: unknown): string {
  if (v instanceof RenderedValue) return v.text;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    return `[]string{${v.map((x) => JSON.stringify(x)).join(', ')}}`;
  }
  return JSON.stringify(v);
}

/** The error body without the path: what Status causes carry as `message`. */
export function errorBody(e: FieldError): string {
  let text = typeText[e.type];
  if (e.type === 'FieldValueTooMany') {
    return `${text}: ${e.badValue}: ${e.detail}`;
  }
  if (showsValue.has(e.type) && e.badValue !== omitValue) {
    text += `: ${renderValue(e.badValue)}`;
  }
  if (e.detail) text += `: ${e.detail}`;
  return text;
}

export function errorText(e: FieldError): string {
  return e.field ? `${e.field}: ${errorBody(e)}` : errorBody(e);
}
