/**
 * ValidatingAdmissionPolicy rules, as upstream's ValidateValidatingAdmissionPolicy,
 * ...Update and ...StatusUpdate: failurePolicy, paramKind, matchConstraints
 * with at least one resource rule, match conditions, variables (CEL
 * identifiers, each compiled with those before it), validations (expression,
 * message, messageExpression, reason), audit annotations (keys, at most 20,
 * value expressions), at least one validation or audit annotation. Every
 * expression must compile (admission-cel.ts); type checking against the
 * matched kinds' schemas is the status controller's (status.typeChecking).
 * On update, unchanged match conditions (with the same paramKind) are not
 * compiled again.
 */
import { T, type CelT } from '../../machinery/cel';
import { FieldError, fieldErrors, FieldPath, RenderedValue } from '../../machinery/field-errors';
import { parseJSONPath } from '../../machinery/jsonpath';
import { deepEqual, type KObject } from '../../machinery/object';
import { validateConditions, type MetaCondition } from '../../machinery/validation/conditions';
import { isQualifiedName } from '../../machinery/validation/names';
import { MatchConditionObject, supportedFailurePolicies, validateMatchConditions } from '../validating-webhook-configuration/admission-rules.validation';
import { compileExpression, ExpressionScope, expressionErrors } from './admission-cel';
import { MatchResourcesObject, ParamKindObject, validateMatchResources, validateParamKind } from './match-resources.validation';

export interface ValidationObject {
  expression?: string;
  message?: string;
  reason?: string | null;
  messageExpression?: string;
}

export interface PolicySpecObject {
  paramKind?: ParamKindObject | null;
  matchConstraints?: MatchResourcesObject | null;
  validations?: ValidationObject[] | null;
  failurePolicy?: string | null;
  auditAnnotations?: Array<{ key?: string; valueExpression?: string }> | null;
  matchConditions?: MatchConditionObject[] | null;
  variables?: Array<{ name?: string; expression?: string }> | null;
}

export interface PolicyStatusObject {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: Array<{ fieldRef?: string; warning?: string }> | null } | null;
  conditions?: MetaCondition[] | null;
}

export type PolicyObject = KObject & { spec?: PolicySpecObject; status?: PolicyStatusObject };

const maxAuditAnnotations = 20;
const maxAuditAnnotationValueExpressionLength = 5 * 1024;
const supportedReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const celReserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const present = <V>(v: V | null | undefined): v is V => v !== undefined && v !== null;

export const isCELIdentifier = (name: string) => celIdentifier.test(name) && !celReserved.has(name);

const goString = (s: string | undefined) => JSON.stringify(s ?? '');

interface PolicyOptions {
  ignoreMatchConditions: boolean;
}

function validateSpec(meta: KObject['metadata'], spec: PolicySpecObject, opts: PolicyOptions, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const hasParams = present(spec.paramKind);
  if (!present(spec.failurePolicy)) errs.push(fieldErrors.required(p.child('failurePolicy')));
  else if (!supportedFailurePolicies.includes(spec.failurePolicy)) errs.push(fieldErrors.notSupported(p.child('failurePolicy'), spec.failurePolicy, supportedFailurePolicies));
  if (hasParams) errs.push(...validateParamKind(spec.paramKind!, p.child('paramKind')));
  if (!present(spec.matchConstraints)) errs.push(fieldErrors.required(p.child('matchConstraints')));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, p.child('matchConstraints')));
    if (!spec.matchConstraints.resourceRules?.length) errs.push(fieldErrors.required(p.child('matchConstraints', 'resourceRules')));
  }
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(spec.matchConditions, { allowParams: hasParams }, p.child('matchConditions')));

  // Upstream's composited compiler: declared only when the policy has variables, each one's type visible to those after it.
  const variables = spec.variables ?? [];
  const composition = variables.length > 0 ? new Map<string, CelT>() : undefined;
  const scope = (hasAuthorizer: boolean): ExpressionScope => ({ hasParams, hasAuthorizer, variables: composition });
  const names = new Set<string>();
  variables.forEach((v, i) => {
    const vp = p.child('variables').index(i);
    const name = v.name ?? '';
    if (name.trim() === '') errs.push(fieldErrors.required(vp.child('name'), 'name is not specified'));
    else {
      if (!isCELIdentifier(name)) errs.push(fieldErrors.invalid(vp.child('name'), name, 'name is not a valid CEL identifier'));
      // variables is a map-list keyed by name.
      if (names.has(name)) errs.push(fieldErrors.duplicate(vp.child('name'), name));
      names.add(name);
    }
    const expression = v.expression ?? '';
    if (expression.trim() === '') errs.push(fieldErrors.required(vp.child('expression'), 'expression is not specified'));
    else {
      const outcome = compileExpression(expression, scope(true));
      errs.push(...expressionErrors(vp.child('expression'), expression, outcome));
      // A variable that does not compile is still declared, as dyn.
      composition!.set(name, outcome.type ?? T.dyn);
    }
  });

  const validations = spec.validations ?? [];
  const annotations = spec.auditAnnotations ?? [];
  if (validations.length === 0 && annotations.length === 0) {
    const why = 'validations or auditAnnotations must contain at least one item';
    errs.push(fieldErrors.required(p.child('validations'), why), fieldErrors.required(p.child('auditAnnotations'), why));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(v, scope, p.child('validations').index(i))));
  if (annotations.length > maxAuditAnnotations) {
    const shown = annotations.map((a) => `admissionregistration.AuditAnnotation{Key:${goString(a.key)}, ValueExpression:${goString(a.valueExpression)}}`);
    errs.push(fieldErrors.invalid(p.child('auditAnnotations'), new RenderedValue(`[]admissionregistration.AuditAnnotation{${shown.join(', ')}}`), `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  }
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const ap = p.child('auditAnnotations').index(i);
    const key = a.key ?? '';
    const name = meta.name ?? '';
    if (name.length > 0) for (const msg of isQualifiedName(`${name}/${key}`)) errs.push(fieldErrors.invalid(ap.child('key'), `${name}/${key}`, msg));
    else errs.push(fieldErrors.invalid(ap.child('key'), key, 'requires metadata.name be non-empty'));
    const value = (a.valueExpression ?? '').trim();
    const vp = ap.child('valueExpression');
    if (value.length === 0) errs.push(fieldErrors.required(vp, 'valueExpression is not specified'));
    else if (Buffer.byteLength(value, 'utf8') > maxAuditAnnotationValueExpressionLength) errs.push(fieldErrors.required(vp, `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`));
    else errs.push(...expressionErrors(vp, a.valueExpression ?? '', compileExpression(value, scope(true), [T.string, T.null])));
    if (keys.has(key)) errs.push(fieldErrors.duplicate(ap.child('key'), key));
    keys.add(key);
  });
  return errs;
}

function validateValidation(v: ValidationObject, scope: (hasAuthorizer: boolean) => ExpressionScope, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const expression = v.expression ?? '';
  if (expression.trim() === '') errs.push(fieldErrors.required(p.child('expression'), 'expression is not specified'));
  else errs.push(...expressionErrors(p.child('expression'), expression, compileExpression(expression, scope(true), [T.bool])));
  const messageExpression = v.messageExpression ?? '';
  if (messageExpression.length > 0 && messageExpression.trim() === '') {
    errs.push(fieldErrors.invalid(p.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
  } else if (messageExpression.trim() !== '') {
    // Untrimmed, so that error columns point into what the user wrote.
    errs.push(...expressionErrors(p.child('messageExpression'), messageExpression, compileExpression(messageExpression, scope(false), [T.string])));
  }
  const message = v.message ?? '';
  if (message.length > 0 && message.trim() === '') errs.push(fieldErrors.invalid(p.child('message'), message, 'message must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) errs.push(fieldErrors.invalid(p.child('message'), message, 'message must not contain line breaks'));
  if (present(v.reason) && !supportedReasons.includes(v.reason)) errs.push(fieldErrors.notSupported(p.child('reason'), v.reason, supportedReasons));
  return errs;
}

export function validatePolicy(obj: KObject): FieldError[] {
  return validateSpec(obj.metadata, (obj as PolicyObject).spec ?? {}, { ignoreMatchConditions: false }, FieldPath.root('spec'));
}

export function validatePolicyUpdate(obj: KObject, old: KObject): FieldError[] {
  const spec = (obj as PolicyObject).spec ?? {};
  const prev = (old as PolicyObject).spec ?? {};
  const ignoreMatchConditions = deepEqual(spec.paramKind ?? null, prev.paramKind ?? null) && deepEqual(spec.matchConditions ?? [], prev.matchConditions ?? []);
  return validateSpec(obj.metadata, spec, { ignoreMatchConditions }, FieldPath.root('spec'));
}

/** /status writes: type checking warnings (a warning and a JSONPath fieldRef each) and conditions. */
export function validatePolicyStatusUpdate(obj: KObject): FieldError[] {
  const status = (obj as PolicyObject).status ?? {};
  const errs: FieldError[] = [];
  const wp = FieldPath.root('status').child('typeChecking', 'expressionWarnings');
  (status.typeChecking?.expressionWarnings ?? []).forEach((w, i) => {
    const p = wp.index(i);
    if (!w.warning) errs.push(fieldErrors.required(p.child('warning')));
    const fieldRef = (w.fieldRef ?? '').trim();
    if (fieldRef === '') errs.push(fieldErrors.required(p.child('fieldRef')));
    else {
      try {
        parseJSONPath(`{${fieldRef}}`);
      } catch (e) {
        errs.push(fieldErrors.invalid(p.child('fieldRef'), fieldRef, `invalid JSONPath: ${(e as Error).message}`));
      }
    }
  });
  errs.push(...validateConditions(status.conditions ?? undefined, FieldPath.root('status').child('conditions')));
  return errs;
}
