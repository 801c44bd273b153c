/**
 * kube-openapi results as field errors, the way upstream's
 * kubeOpenAPIResultToFieldErrors maps them: required, enum, too long and too
 * many get their own types and wording; type errors are FieldValueTypeInvalid
 * with the validator's message; the rest are Invalid with it. Plain errors
 * (junctor summaries, range checks) sit at the base path, `<nil>` when there
 * is none, as upstream prints a nil field.Path.
 */
import { FieldError, FieldPath } from '../field-errors';
import { goJson, goQuote } from '../managed-fields/go-values';
import { goBadValue } from './go-format';
import type { OpenAPIError } from './value-result';

const nilPath = '<nil>';
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

export function openAPIErrorsToFieldErrors(errors: OpenAPIError[], base?: FieldPath): FieldError[] {
  return errors.map((e) => {
    const baseField = base ? base.toString() : nilPath;
    if (!e.code) return { type: 'FieldValueInvalid', field: baseField, badValue: '', detail: e.message };
    let field = baseField;
    if (e.name && e.name !== '.') {
      const name = e.name.startsWith('.') ? e.name.slice(1) : e.name;
      field = base ? base.child(name).toString() : name;
    }
    switch (e.code) {
      case 'Required':
        return { type: 'FieldValueRequired', field, badValue: '', detail: '' };
      case 'Enum': {
        const values = (e.values ?? []).map((v) => (typeof v === 'string' ? v : goJson(v)));
        const detail = values.length ? `supported values: ${values.map(goQuote).join(', ')}` : '';
        return { type: 'FieldValueNotSupported', field, badValue: goBadValue(e.value), detail };
      }
      case 'TooLong':
        return { type: 'FieldValueTooLong', field, detail: `may not be more than ${e.valid} ${plural(e.valid!, 'byte', 'bytes')}` };
      case 'MaxItems':
      case 'TooManyProperties':
        return { type: 'FieldValueTooMany', field, badValue: e.value, detail: `must have at most ${e.valid} ${plural(e.valid!, 'item', 'items')}` };
      case 'InvalidType':
        return { type: 'FieldValueTypeInvalid', field, badValue: goBadValue(e.value ?? ''), detail: e.message };
      default:
        return { type: 'FieldValueInvalid', field, badValue: goBadValue(e.value ?? ''), detail: e.message };
    }
  });
}
