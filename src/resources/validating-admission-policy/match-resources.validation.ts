/** MatchResources and ParamKind as upstream validates them (shared by policies and bindings). */
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';
import { validateLabelSelector, type MetaLabelSelector } from '../../machinery/label-selector';
import { isDNS1035Label, isDNS1123Subdomain, validatePathSegmentName } from '../../machinery/validation/names';
import { RuleObject, supportedMatchPolicies, validateRuleWithOperations } from '../validating-webhook-configuration/admission-rules.validation';

export interface NamedRuleObject extends RuleObject {
  resourceNames?: string[] | null;
}

export interface MatchResourcesObject {
  namespaceSelector?: MetaLabelSelector | null;
  objectSelector?: MetaLabelSelector | null;
  resourceRules?: NamedRuleObject[] | null;
  excludeResourceRules?: NamedRuleObject[] | null;
  matchPolicy?: string | null;
}

export interface ParamKindObject {
  apiVersion?: string;
  kind?: string;
}

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

function validateNamedRuleWithOperations(rule: NamedRuleObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    const np = p.child('resourceNames').index(i);
    for (const msg of validatePathSegmentName(name, false)) errs.push(fieldErrors.invalid(np, name, msg));
    if (seen.has(name)) errs.push(fieldErrors.duplicate(np, name));
    else seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(rule, p)];
}

/** validateMatchResources: matchPolicy and both selectors are required (the v1 defaults fill them), selectors strictly checked. */
export function validateMatchResources(mc: MatchResourcesObject | null | undefined, p: FieldPath): FieldError[] {
  if (!present(mc)) return [];
  const errs: FieldError[] = [];
  if (!present(mc.matchPolicy)) errs.push(fieldErrors.required(p.child('matchPolicy')));
  else if (!supportedMatchPolicies.includes(mc.matchPolicy)) errs.push(fieldErrors.notSupported(p.child('matchPolicy'), mc.matchPolicy, supportedMatchPolicies));
  for (const field of ['namespaceSelector', 'objectSelector'] as const) {
    const sel = mc[field];
    if (!present(sel)) errs.push(fieldErrors.required(p.child(field)));
    else errs.push(...validateLabelSelector(sel, p.child(field)));
  }
  for (const field of ['resourceRules', 'excludeResourceRules'] as const) {
    (mc[field] ?? []).forEach((rule, i) => errs.push(...validateNamedRuleWithOperations(rule, p.child(field).index(i))));
  }
  return errs;
}

/** Upstream's parseGroupVersion: "" and "/" are empty, one slash splits, more is an error. */
function parseGroupVersion(gv: string): { group: string; version: string } | { error: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  return { error: `unexpected GroupVersion string: ${gv}` };
}

export function validateParamKind(kind: ParamKindObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = kind.apiVersion ?? '';
  const ap = p.child('apiVersion');
  if (apiVersion === '') errs.push(fieldErrors.required(ap));
  else {
    const gv = parseGroupVersion(apiVersion);
    if ('error' in gv) errs.push(fieldErrors.invalid(ap, apiVersion, gv.error));
    else {
      if (gv.group.length > 0) {
        const msgs = isDNS1123Subdomain(gv.group);
        if (msgs.length) errs.push(fieldErrors.invalid(ap, gv.group, msgs.join(',')));
      }
      if (gv.version.length === 0) errs.push(fieldErrors.invalid(ap, apiVersion, 'version must be specified'));
      else {
        const msgs = isDNS1035Label(gv.version);
        if (msgs.length) errs.push(fieldErrors.invalid(ap, gv.version, msgs.join(',')));
      }
    }
  }
  const k = kind.kind ?? '';
  if (k === '') errs.push(fieldErrors.required(p.child('kind')));
  else {
    const msgs = isDNS1035Label(k.toLowerCase());
    if (msgs.length) errs.push(fieldErrors.invalid(p.child('kind'), k, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
  return errs;
}
