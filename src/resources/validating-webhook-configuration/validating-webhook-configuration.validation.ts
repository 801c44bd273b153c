/**
 * Validating and mutating webhook configurations, as upstream validates them
 * (ValidateValidatingWebhookConfiguration, ValidateMutatingWebhookConfiguration
 * and their Update forms): each webhook's fully qualified name, unique in its
 * configuration; rules; failurePolicy, matchPolicy, sideEffects (None or
 * NoneOnDryRun in v1), timeoutSeconds 1–30, selectors, reinvocationPolicy;
 * a client config with exactly one of url (https, no user, query or fragment)
 * or service; AdmissionReview versions; match conditions. On update, rules a
 * stored configuration already broke stay relaxed, and unchanged match
 * conditions are not compiled again.
 */
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';
import { validateLabelSelector, type MetaLabelSelector } from '../../machinery/label-selector';
import { deepEqual, type KObject } from '../../machinery/object';
import { isDNS1123Subdomain } from '../../machinery/validation/names';
import { validateWebhookService, validateWebhookURL } from '../custom-resource-definition/crd-webhook.validation';
import {
  acceptedAdmissionReviewVersions,
  MatchConditionObject,
  noSideEffectClasses,
  RuleObject,
  supportedFailurePolicies,
  supportedMatchPolicies,
  supportedReinvocationPolicies,
  supportedSideEffectClasses,
  validateAdmissionReviewVersions,
  validateMatchConditions,
  validateRuleWithOperations,
} from './admission-rules.validation';

export interface ServiceReferenceObject {
  namespace?: string;
  name?: string;
  path?: string | null;
  port?: number | null;
}

export interface WebhookObject {
  name?: string;
  clientConfig?: { url?: string | null; service?: ServiceReferenceObject | null; caBundle?: string } | null;
  rules?: RuleObject[] | null;
  failurePolicy?: string | null;
  matchPolicy?: string | null;
  namespaceSelector?: MetaLabelSelector | null;
  objectSelector?: MetaLabelSelector | null;
  sideEffects?: string | null;
  timeoutSeconds?: number | null;
  admissionReviewVersions?: string[] | null;
  reinvocationPolicy?: string | null;
  matchConditions?: MatchConditionObject[] | null;
}

export type WebhookConfigurationObject = KObject & { webhooks?: WebhookObject[] | null };

interface WebhookOptions {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
}

const createOptions: WebhookOptions = {
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
};

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
export function validateFullyQualifiedName(p: FieldPath, name: string): FieldError[] {
  if (name.length === 0) return [fieldErrors.required(p)];
  const msgs = isDNS1123Subdomain(name);
  if (msgs.length) return [fieldErrors.invalid(p, name, msgs.join(','))];
  if (name.split('.').length < 3) return [fieldErrors.invalid(p, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateWebhook(hook: WebhookObject, opts: WebhookOptions, p: FieldPath, mutating: boolean): FieldError[] {
  const errs = validateFullyQualifiedName(p.child('name'), hook.name ?? '');
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  (hook.rules ?? []).forEach((rule, i) => errs.push(...validateRuleWithOperations(rule, p.child('rules').index(i))));
  if (present(hook.failurePolicy) && !supportedFailurePolicies.includes(hook.failurePolicy)) {
    errs.push(fieldErrors.notSupported(p.child('failurePolicy'), hook.failurePolicy, supportedFailurePolicies));
  }
  if (present(hook.matchPolicy) && !supportedMatchPolicies.includes(hook.matchPolicy)) {
    errs.push(fieldErrors.notSupported(p.child('matchPolicy'), hook.matchPolicy, supportedMatchPolicies));
  }
  const allowedSideEffects = opts.requireNoSideEffects ? noSideEffectClasses : supportedSideEffectClasses;
  if (!present(hook.sideEffects)) errs.push(fieldErrors.required(p.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects)) errs.push(fieldErrors.notSupported(p.child('sideEffects'), hook.sideEffects, allowedSideEffects));
  if (present(hook.timeoutSeconds) && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(fieldErrors.invalid(p.child('timeoutSeconds'), hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  if (present(hook.namespaceSelector)) errs.push(...validateLabelSelector(hook.namespaceSelector, p.child('namespaceSelector'), selectorOpts));
  if (present(hook.objectSelector)) errs.push(...validateLabelSelector(hook.objectSelector, p.child('objectSelector'), selectorOpts));
  if (mutating && present(hook.reinvocationPolicy) && !supportedReinvocationPolicies.includes(hook.reinvocationPolicy)) {
    errs.push(fieldErrors.notSupported(p.child('reinvocationPolicy'), hook.reinvocationPolicy, supportedReinvocationPolicies));
  }
  errs.push(...validateClientConfig(hook.clientConfig ?? {}, p.child('clientConfig')));
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(hook.matchConditions, { allowParams: false }, p.child('matchConditions')));
  return errs;
}

function validateClientConfig(cc: NonNullable<WebhookObject['clientConfig']>, p: FieldPath): FieldError[] {
  const hasURL = present(cc.url);
  const hasService = present(cc.service);
  if (hasURL === hasService) return [fieldErrors.required(p, 'exactly one of url or service is required')];
  if (hasURL) return validateWebhookURL(p.child('url'), cc.url!);
  const service = cc.service!;
  // Upstream passes the service's name and namespace to ValidateWebhookService in the other order than it declares
  // them, so a missing name is reported at service.namespace and a missing namespace at service.name.
  return validateWebhookService(p.child('service'), { name: service.namespace ?? '', namespace: service.name ?? '', path: service.path ?? undefined, port: service.port ?? undefined });
}

function validateConfiguration(obj: KObject, opts: WebhookOptions, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const hooks = FieldPath.root('webhooks');
  ((obj as WebhookConfigurationObject).webhooks ?? []).forEach((hook, i) => {
    const p = hooks.index(i);
    errs.push(...validateWebhook(hook, opts, p, mutating));
    errs.push(...validateAdmissionReviewVersions(hook.admissionReviewVersions, opts.requireRecognizedAdmissionReviewVersion, p.child('admissionReviewVersions')));
    const name = hook.name ?? '';
    if (opts.requireUniqueWebhookNames && name.length > 0) {
      if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** What the stored configuration already had: rules it broke stay relaxed, unchanged match conditions are not recompiled. */
function updateOptions(obj: KObject, old: KObject): WebhookOptions {
  const hooks = (obj as WebhookConfigurationObject).webhooks ?? [];
  const prev = (old as WebhookConfigurationObject).webhooks ?? [];
  const sameConditions = hooks.length === prev.length && prev.every((h, i) => deepEqual(h.matchConditions ?? [], hooks[i].matchConditions ?? []));
  const names = prev.map((h) => h.name ?? '');
  const strictSelectorFails = (sel: MetaLabelSelector | null | undefined) => present(sel) && validateLabelSelector(sel, '').length > 0;
  return {
    ignoreMatchConditions: sameConditions,
    requireNoSideEffects: prev.every((h) => present(h.sideEffects) && noSideEffectClasses.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: prev.every((h) => !h.admissionReviewVersions?.length || h.admissionReviewVersions.some((v) => acceptedAdmissionReviewVersions.includes(v))),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: prev.some((h) => strictSelectorFails(h.namespaceSelector) || strictSelectorFails(h.objectSelector)),
  };
}

export const validateValidatingWebhookConfiguration = (obj: KObject) => validateConfiguration(obj, createOptions, false);
export const validateValidatingWebhookConfigurationUpdate = (obj: KObject, old: KObject) => validateConfiguration(obj, updateOptions(obj, old), false);
export const validateMutatingWebhookConfiguration = (obj: KObject) => validateConfiguration(obj, createOptions, true);
export const validateMutatingWebhookConfigurationUpdate = (obj: KObject, old: KObject) => validateConfiguration(obj, updateOptions(obj, old), true);
