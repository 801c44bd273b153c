/**
 * ValidatingAdmissionPolicy strategy, as upstream's: the v1 defaults
 * (failurePolicy Fail; matchPolicy Equivalent, selectors {} and rule scope "*"
 * in matchConstraints) on every decode. The registry resets status on create
 * and keeps it on spec writes (the kind has a /status subresource); generation
 * is 1 on create and bumped when the spec changes. /status writes keep the
 * stored spec (and metadata: upstream resets it for status writes).
 */
import { isPlainObject, type KObject } from '../../machinery/object';
import { defaultRules } from '../validating-webhook-configuration/validating-webhook-configuration.strategy';
import type { MatchResourcesObject } from './match-resources.validation';
import type { PolicyObject, PolicySpecObject } from './validating-admission-policy.validation';

const unset = (v: unknown) => v === undefined || v === null;

/** SetDefaults_MatchResources, with SetDefaults_Rule on its rules. */
export function defaultMatchResources(given: MatchResourcesObject | null | undefined): void {
  if (!isPlainObject(given)) return;
  const mc = given as MatchResourcesObject;
  if (unset(mc.matchPolicy)) mc.matchPolicy = 'Equivalent';
  if (unset(mc.namespaceSelector)) mc.namespaceSelector = {};
  if (unset(mc.objectSelector)) mc.objectSelector = {};
  defaultRules(mc.resourceRules);
  defaultRules(mc.excludeResourceRules);
}

/** SetDefaults_ValidatingAdmissionPolicySpec and the MatchResources and Rule defaults below it. */
export function applyPolicyDefaults(obj: KObject): void {
  const policy = obj as PolicyObject;
  if (!isPlainObject(policy.spec)) policy.spec = {};
  const spec = policy.spec as PolicySpecObject;
  if (unset(spec.failurePolicy)) spec.failurePolicy = 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

/** /status: the spec comes from the stored object. */
export function prepareForStatusUpdate(obj: KObject, old: KObject): void {
  if (old.spec === undefined) delete obj.spec;
  else obj.spec = structuredClone(old.spec);
}
