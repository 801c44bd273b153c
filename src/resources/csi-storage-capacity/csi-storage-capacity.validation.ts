/** CSIStorageCapacity rules (spec §2.6, upstream ValidateCSIStorageCapacity and its update check). */
import { FieldError, RenderedValue, fieldErrors } from '../../machinery/field-errors';
import { MetaLabelSelector, labelSelectorHasInvalidLabelValue, validateLabelSelector } from '../../machinery/label-selector';
import { KObject, deepEqual } from '../../machinery/object';
import { canonicalQuantity, isNegative } from '../../machinery/quantity';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';

export interface CsiStorageCapacityObject extends KObject {
  nodeTopology?: MetaLabelSelector | null;
  storageClassName?: string;
  capacity?: string | number | null;
  maximumVolumeSize?: string | number | null;
}

export const quantityFields = ['capacity', 'maximumVolumeSize'] as const;

interface Options {
  allowInvalidLabelValueInSelector: boolean;
}

export function validateCsiStorageCapacity(obj: KObject, opts: Options = { allowInvalidLabelValueInSelector: false }): FieldError[] {
  const cap = obj as CsiStorageCapacityObject;
  const errs = validateLabelSelector(cap.nodeTopology, 'nodeTopology', opts);
  const className = cap.storageClassName ?? '';
  for (const msg of nameIsDNSSubdomain(className, false)) errs.push(fieldErrors.invalid('storageClassName', className, msg));
  // Upstream checks only capacity; the brief asks the same of maximumVolumeSize.
  for (const f of quantityFields) {
    const q = cap[f];
    if (q === null || q === undefined) continue;
    const text = canonicalQuantity(q);
    if (isNegative(text)) errs.push(fieldErrors.invalid(f, text, 'must be greater than or equal to 0'));
  }
  return errs;
}

export function validateCsiStorageCapacityUpdate(obj: KObject, old: KObject): FieldError[] {
  const cap = obj as CsiStorageCapacityObject;
  const prev = old as CsiStorageCapacityObject;
  // Invalid label values already stored stay acceptable, so old objects remain updatable.
  const errs = validateCsiStorageCapacity(obj, { allowInvalidLabelValueInSelector: labelSelectorHasInvalidLabelValue(prev.nodeTopology) });
  if (!deepEqual(semantic(cap.nodeTopology), semantic(prev.nodeTopology))) {
    errs.push(fieldErrors.invalid('nodeTopology', goLabelSelector(cap.nodeTopology), 'field is immutable'));
  }
  if ((cap.storageClassName ?? '') !== (prev.storageClassName ?? '')) {
    errs.push(fieldErrors.invalid('storageClassName', cap.storageClassName ?? '', 'field is immutable'));
  }
  return errs;
}

/** Upstream's semantic equality: empty and missing lists or maps are the same. */
function semantic(sel: MetaLabelSelector | null | undefined): unknown {
  if (!sel) return null;
  return {
    matchLabels: Object.keys(sel.matchLabels ?? {}).length ? sel.matchLabels : undefined,
    matchExpressions: (sel.matchExpressions ?? []).length
      ? sel.matchExpressions!.map((e) => ({ key: e.key, operator: e.operator, values: e.values?.length ? e.values : undefined }))
      : undefined,
  };
}

const goString = (s: string | undefined) => JSON.stringify(s ?? '');

/** The selector as Go's %#v prints it, which is how upstream shows the immutable value. */
export function goLabelSelector(sel: MetaLabelSelector | null | undefined): RenderedValue {
  if (!sel) return new RenderedValue('null');
  const labels = sel.matchLabels
    ? `map[string]string{${Object.keys(sel.matchLabels)
        .sort()
        .map((k) => `${goString(k)}:${goString(sel.matchLabels![k])}`)
        .join(', ')}}`
    : 'map[string]string(nil)';
  const exprs = sel.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${sel.matchExpressions
        .map((e) => {
          const values = e.values ? `[]string{${e.values.map(goString).join(', ')}}` : '[]string(nil)';
          return `v1.LabelSelectorRequirement{Key:${goString(e.key)}, Operator:${goString(e.operator)}, Values:${values}}`;
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new RenderedValue(`v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${exprs}}`);
}
