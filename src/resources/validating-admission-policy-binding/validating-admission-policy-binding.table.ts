/**
 * `kubectl get validatingadmissionpolicybindings` columns, as upstream's
 * printer: Name, PolicyName, ParamRef (`namespace/name`, `*` and the name without a
 * namespace, the selector as Go prints a LabelSelector, or `<unset>`), Age.
 */
import type { MetaLabelSelector } from '../../machinery/label-selector';
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import type { BindingObject } from './validating-admission-policy-binding.validation';

/** metav1.LabelSelector's generated String(). */
export function goLabelSelectorString(sel: MetaLabelSelector): string {
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('');
  const exprs = (sel.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

function paramRefText(obj: BindingObject): string {
  const ref = obj.spec?.paramRef;
  if (!ref) return '<unset>';
  if (ref.name) return ref.namespace ? `${ref.namespace}/${ref.name}` : `*/${ref.name}`;
  if (ref.selector) return goLabelSelectorString(ref.selector);
  return '<unset>';
}

export const bindingTable: TableConvention = {
  columns: [
    nameColumn,
    { name: 'PolicyName', type: 'string', description: 'PolicyName indicates the policy definition which the policy binding binded to', priority: 0 },
    { name: 'ParamRef', type: 'string', description: 'ParamRef indicates the param resource which sets the configration param', priority: 0 },
    ageColumn,
  ],
  cells(obj: KObject, now: Date) {
    const binding = obj as BindingObject;
    return [obj.metadata.name, binding.spec?.policyName ?? '', paramRefText(binding), age(obj.metadata.creationTimestamp, now)];
  },
};
