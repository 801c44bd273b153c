/**
 * ValidatingAdmissionPolicyBinding rules, as upstream's
 * ValidateValidatingAdmissionPolicyBinding (the same on update): policyName,
 * paramRef (name or selector, parameterNotFoundAction), matchResources
 * (reported under upstream's misspelt path `spec.matchResouces`), and
 * validationActions (required, unique, Deny and Warn not together). That the
 * policy exists or takes parameters is not checked, as upstream.
 */
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';
import { validateLabelSelector, type MetaLabelSelector } from '../../machinery/label-selector';
import type { KObject } from '../../machinery/object';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../machinery/validation/names';
import { MatchResourcesObject, validateMatchResources } from '../validating-admission-policy/match-resources.validation';
import { goTypedList } from '../validating-webhook-configuration/admission-rules.validation';

export interface ParamRefObject {
  name?: string;
  namespace?: string;
  selector?: MetaLabelSelector | null;
  parameterNotFoundAction?: string | null;
}

export interface BindingSpecObject {
  policyName?: string;
  paramRef?: ParamRefObject | null;
  matchResources?: MatchResourcesObject | null;
  validationActions?: string[] | null;
}

export type BindingObject = KObject & { spec?: BindingSpecObject };

const validValidationActions = ['Audit', 'Deny', 'Warn'];
const present = <V>(v: V | null | undefined): v is V => v !== undefined && v !== null;

function validateParamRef(ref: ParamRefObject | null | undefined, p: FieldPath): FieldError[] {
  if (!present(ref)) return [];
  const errs: FieldError[] = [];
  const name = ref.name ?? '';
  const exclusive = 'name and selector are mutually exclusive';
  if (name.length > 0) {
    for (const msg of validatePathSegmentName(name, false)) errs.push(fieldErrors.invalid(p.child('name'), name, msg));
    if (present(ref.selector)) errs.push(fieldErrors.forbidden(p.child('name'), exclusive));
  }
  if (present(ref.selector)) {
    errs.push(...validateLabelSelector(ref.selector, p.child('selector')));
    if (name.length > 0) errs.push(fieldErrors.forbidden(p.child('selector'), exclusive));
  }
  if (name.length === 0 && !present(ref.selector)) errs.push(fieldErrors.required(p, 'one of name or selector must be specified'));
  const action = ref.parameterNotFoundAction;
  if (!present(action) || action.length === 0) errs.push(fieldErrors.required(p.child('parameterNotFoundAction')));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(fieldErrors.notSupported(p.child('parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

function validateValidationActions(actions: string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (!validValidationActions.includes(action)) errs.push(fieldErrors.notSupported(p.index(i), action, validValidationActions));
    if (seen.has(action)) errs.push(fieldErrors.duplicate(p.index(i), action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(
      fieldErrors.invalid(
        p,
        goTypedList('admissionregistration.ValidationAction', actions),
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  }
  if (seen.size === 0) errs.push(fieldErrors.required(p, 'at least one validation action is required'));
  return errs;
}

export function validateBinding(obj: KObject): FieldError[] {
  const spec = (obj as BindingObject).spec ?? {};
  const p = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const policyName = spec.policyName ?? '';
  if (policyName.length === 0) errs.push(fieldErrors.required(p.child('policyName')));
  else for (const msg of nameIsDNSSubdomain(policyName, false)) errs.push(fieldErrors.invalid(p.child('policyName'), policyName, msg));
  errs.push(...validateParamRef(spec.paramRef, p.child('paramRef')));
  errs.push(...validateMatchResources(spec.matchResources, p.child('matchResouces')));
  errs.push(...validateValidationActions(spec.validationActions ?? [], p.child('validationActions')));
  return errs;
}

export const validateBindingUpdate = (obj: KObject): FieldError[] => validateBinding(obj);
