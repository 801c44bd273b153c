/**
 * The parts of upstream's CRD validation that look at one piece at a time:
 * names, printer columns, subresources, selectable fields, deprecation
 * warnings, stored versions and enum-like strings.
 */
import { FieldError, fieldErrors, FieldPath, RenderedValue } from '../../machinery/field-errors';
import { goJson, goQuote } from '../../machinery/managed-fields/go-values';
import { validateSimpleJSONPath } from '../../machinery/jsonpath';
import { JSONSchemaProps, newStructuralError, validFieldPath } from '../../machinery/structural';
import { isDNS1035Label } from '../../machinery/validation/names';
import type { Column, Names, SelectableField, Subresources, Version } from './crd-internal';

export const MAX_SELECTABLE_FIELDS = 8;
const columnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** A []string bad value, printed as encoding/json prints it. */
export const jsonValue = (v: unknown) => new RenderedValue(goJson(v ?? null));

export function validateEnumString(p: FieldPath, value: string, accepted: string[], required: boolean): FieldError[] {
  if (value === '') return required ? [fieldErrors.required(p)] : [];
  return accepted.includes(value) ? [] : [fieldErrors.notSupported(p, value, accepted)];
}

export function validateNames(names: Names, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const dns1035 = (field: 'plural' | 'singular', v: string | undefined) => {
    const msgs = v ? isDNS1035Label(v) : [];
    if (msgs.length) errs.push(fieldErrors.invalid(p.child(field), v, msgs.join(',')));
  };
  const mixedCase = (field: 'kind' | 'listKind', v: string | undefined) => {
    const msgs = v ? isDNS1035Label(v.toLowerCase()) : [];
    if (msgs.length) errs.push(fieldErrors.invalid(p.child(field), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  };
  dns1035('plural', names.plural);
  dns1035('singular', names.singular);
  mixedCase('kind', names.kind);
  mixedCase('listKind', names.listKind);
  (names.shortNames ?? []).forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length) errs.push(fieldErrors.invalid(p.child('shortNames').index(i), s, msgs.join(',')));
  });
  if (names.kind && names.kind === names.listKind) errs.push(fieldErrors.invalid(p.child('listKind'), names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    const msgs = isDNS1035Label(c);
    if (msgs.length) errs.push(fieldErrors.invalid(p.child('categories').index(i), c, msgs.join(',')));
  });
  return errs;
}

export function validateColumn(col: Column, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(fieldErrors.required(p.child('name')));
  const typeDetail = `must be one of ${columnTypes.join(',')}`;
  if (!col.type) errs.push(fieldErrors.required(p.child('type'), typeDetail));
  else if (!columnTypes.includes(col.type)) errs.push(fieldErrors.invalid(p.child('type'), col.type, typeDetail));
  if (col.format && !columnFormats.includes(col.format)) errs.push(fieldErrors.invalid(p.child('format'), col.format, `must be one of ${columnFormats.join(',')}`));
  // The internal type names this field JSONPath, and so do upstream's errors.
  if (!col.jsonPath) errs.push(fieldErrors.required(p.child('JSONPath')));
  else errs.push(...validateSimpleJSONPath(col.jsonPath, p.child('JSONPath')));
  return errs;
}

export function validateSubresources(sub: Subresources | undefined, p: FieldPath): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const under = (field: string, value: string | undefined, prefixes: string[], detail: string) => {
    const fp = p.child(`scale.${field}`);
    if (!value) return void errs.push(fieldErrors.required(fp));
    const bad = validateSimpleJSONPath(value, fp);
    if (bad.length) errs.push(...bad);
    else if (!prefixes.some((x) => value.startsWith(x))) errs.push(fieldErrors.invalid(fp, value, detail));
  };
  under('specReplicasPath', scale.specReplicasPath, ['.spec.'], 'should be a json path under .spec');
  under('statusReplicasPath', scale.statusReplicasPath, ['.status.'], 'should be a json path under .status');
  const selector = scale.labelSelectorPath;
  if (selector) {
    const fp = p.child('scale.labelSelectorPath');
    const bad = validateSimpleJSONPath(selector, fp);
    if (bad.length) errs.push(...bad);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      errs.push(fieldErrors.invalid(fp, selector, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

/** selectableFields: schema paths (no array notation) to string, boolean or integer fields outside metadata, unique, at most 8. */
export function validateSelectableFields(fields: SelectableField[], schema: JSONSchemaProps, p: FieldPath, allowTooMany: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const jp = p.index(i).child('jsonPath');
    if (!f.jsonPath) return void errs.push(fieldErrors.required(jp));
    const found = validFieldPath(f.jsonPath, schema, false);
    if (!found.ok) return void errs.push(fieldErrors.invalid(jp, f.jsonPath, `is an invalid path: ${found.error}`));
    if (found.root === 'metadata') errs.push(fieldErrors.invalid(jp, f.jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(found.schema?.type ?? '')) {
      errs.push(fieldErrors.invalid(jp, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const key = found.path?.toString() ?? '';
    if (unique.has(key)) errs.push(fieldErrors.duplicate(jp, f.jsonPath));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !allowTooMany) {
    errs.push({ type: 'FieldValueTooMany', field: p.toString(), badValue: unique.size, detail: `must have at most ${MAX_SELECTABLE_FIELDS} items` });
  }
  return errs;
}

/** The schema's NewStructural error for selectableFields, at upstream's odd path. */
export function selectableFieldsSchemaError(schema: JSONSchemaProps, p: FieldPath): FieldError[] {
  const err = newStructuralError(schema);
  return err ? [fieldErrors.invalid(p.child('schema.openAPIV3Schema'), '', err)] : [];
}

export function validateDeprecationWarning(v: Version, p: FieldPath): FieldError[] {
  const warning = v.deprecationWarning;
  const msgs: string[] = [];
  if (!v.deprecated && warning !== undefined && warning !== null) msgs.push('can only be set for deprecated versions');
  else if (warning !== undefined && warning !== null) {
    if (Buffer.byteLength(warning) > 256) msgs.push('must be <= 256 characters long');
    if (warning.length === 0) msgs.push('must not be an empty string');
    // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space; the index is in bytes.
    let byteIndex = 0;
    for (const ch of warning) {
      if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
        msgs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
        break;
      }
      byteIndex += Buffer.byteLength(ch);
    }
  }
  // %q of the warning: control characters print as Go escapes them.
  const shown = typeof warning === 'string' ? new RenderedValue(goQuote(warning)) : null;
  return msgs.map((m) => fieldErrors.invalid(p.child('deprecationWarning'), shown, m));
}

export function validateStoredVersions(stored: string[] | null | undefined, versions: Version[], p: FieldPath): FieldError[] {
  if (!stored || stored.length === 0) return [fieldErrors.invalid(p, jsonValue(stored ?? null), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  stored.forEach((v, i) => remaining.set(v, i));
  for (const v of versions) {
    const name = v.name ?? '';
    if (v.storage && !remaining.has(name)) errs.push(fieldErrors.invalid(p, jsonValue(stored), `must have the storage version ${name}`));
    remaining.delete(name);
  }
  for (const [v, i] of [...remaining].sort((a, b) => a[1] - b[1])) {
    errs.push(
      fieldErrors.invalid(
        p.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}
