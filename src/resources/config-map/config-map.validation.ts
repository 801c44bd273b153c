/** ConfigMap rules (spec §2.3): config keys, no key in both maps, 1 MiB total, immutability. */
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';
import { KObject, deepEqual } from '../../machinery/object';
import { isConfigMapKey } from '../../machinery/validation/names';

const maxTotalBytes = 1024 * 1024;

type ConfigMapObject = KObject & { data?: Record<string, string>; binaryData?: Record<string, string>; immutable?: boolean };

export function validateConfigMap(obj: KObject): FieldError[] {
  const cm = obj as ConfigMapObject;
  const errs: FieldError[] = [];
  let total = 0;
  const data = FieldPath.root('data');
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(data.key(key), key, msg));
    if (cm.binaryData && key in cm.binaryData) {
      errs.push(fieldErrors.invalid(data.key(key), key, 'duplicate of key present in binaryData'));
    }
    total += Buffer.byteLength(value, 'utf8');
  }
  const binary = FieldPath.root('binaryData');
  for (const [key, value] of Object.entries(cm.binaryData ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(binary.key(key), key, msg));
    if (!isBase64(value)) errs.push(fieldErrors.invalid(binary.key(key), '<binary>', 'must be base64-encoded'));
    else total += Buffer.from(value, 'base64').length;
  }
  if (total > maxTotalBytes) errs.push(fieldErrors.tooLong('', maxTotalBytes));
  return errs;
}

export function validateConfigMapUpdate(obj: KObject, old: KObject): FieldError[] {
  const cm = obj as ConfigMapObject;
  const prev = old as ConfigMapObject;
  const errs: FieldError[] = [];
  if (prev.immutable === true) {
    const why = 'field is immutable when `immutable` is set';
    if (cm.immutable !== true) errs.push(fieldErrors.forbidden('immutable', why));
    if (!deepEqual(cm.data ?? {}, prev.data ?? {})) errs.push(fieldErrors.forbidden('data', why));
    if (!deepEqual(cm.binaryData ?? {}, prev.binaryData ?? {})) errs.push(fieldErrors.forbidden('binaryData', why));
  }
  return [...errs, ...validateConfigMap(obj)];
}

function isBase64(s: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s);
}
