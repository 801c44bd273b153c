/**
 * ValidatingAdmissionPolicyBinding strategy, as upstream's: the v1 defaults of
 * matchResources (matchPolicy Equivalent, selectors {}, rule scope "*") on
 * every decode; generation 1 on create, bumped when the spec changes.
 * paramRef.parameterNotFoundAction has no default in v1 (it is required).
 */
import type { KObject } from '../../machinery/object';
import { defaultMatchResources } from '../validating-admission-policy/validating-admission-policy.strategy';
import type { BindingObject } from './validating-admission-policy-binding.validation';

export function applyBindingDefaults(obj: KObject): void {
  defaultMatchResources((obj as BindingObject).spec?.matchResources);
}
