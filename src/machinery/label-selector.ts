/**
 * The metav1.LabelSelector object ({matchLabels, matchExpressions}) used in
 * specs (PDB spec.selector, CSIStorageCapacity nodeTopology): upstream's
 * ValidateLabelSelector and LabelSelectorAsSelector (1.32).
 */
import { FieldError, FieldPath, fieldErrors } from './field-errors';
import { LabelSelector, LabelSelectorError, Requirement, SelectorOperator, newRequirement } from './label-requirements';
import { isValidLabelValue } from './validation/names';
import { validateLabelName, validateLabels } from './validation/object-meta';

export interface LabelSelectorRequirementObject {
  key: string;
  operator: string;
  values?: string[];
}

export interface MetaLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirementObject[];
}

export interface LabelSelectorValidationOptions {
  /** Only for updates whose stored selector already holds such a value (backward compatibility). */
  allowInvalidLabelValueInSelector?: boolean;
  allowUnknownOperatorInRequirement?: boolean;
}

const toPath = (p: FieldPath | string) => (typeof p === 'string' ? FieldPath.root(p) : p);

/** Whether any matchExpressions value is not a valid label value (decides the update option). */
export function labelSelectorHasInvalidLabelValue(sel: MetaLabelSelector | null | undefined): boolean {
  return (sel?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => isValidLabelValue(v).length > 0));
}

export function validateLabelSelector(
  sel: MetaLabelSelector | null | undefined,
  path: FieldPath | string,
  opts: LabelSelectorValidationOptions = {},
): FieldError[] {
  if (!sel) return [];
  const p = toPath(path);
  const errs = validateLabels(sel.matchLabels, p.child('matchLabels'));
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    for (const e of validateLabelSelectorRequirement(expr, p.child('matchExpressions').index(i), opts)) errs.push(e);
  });
  return errs;
}

export function validateLabelSelectorRequirement(
  req: LabelSelectorRequirementObject,
  path: FieldPath | string,
  opts: LabelSelectorValidationOptions = {},
): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErrors.required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(fieldErrors.forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      break;
    default:
      if (!opts.allowUnknownOperatorInRequirement) {
        errs.push(fieldErrors.invalid(p.child('operator'), req.operator ?? '', 'not a valid selector operator'));
      }
  }
  errs.push(...validateLabelName(req.key ?? '', p.child('key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(v)) errs.push(fieldErrors.invalid(p.child('values').index(j), v, msg));
    });
  }
  return errs;
}

const operators: Record<string, SelectorOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * A selector for matching: null/undefined selects nothing, `{}` everything.
 * Throws LabelSelectorError (upstream's text) on an invalid selector.
 */
export function labelSelectorAsSelector(sel: MetaLabelSelector | null | undefined): LabelSelector {
  if (!sel) return LabelSelector.nothing();
  const labels = Object.entries(sel.matchLabels ?? {});
  const exprs = sel.matchExpressions ?? [];
  if (labels.length + exprs.length === 0) return LabelSelector.everything();
  const reqs: Requirement[] = labels.map(([k, v]) => newRequirement(k, '=', [v]));
  for (const e of exprs) {
    const op = Object.prototype.hasOwnProperty.call(operators, e.operator) ? operators[e.operator] : undefined;
    if (!op) throw new LabelSelectorError(`${JSON.stringify(e.operator ?? '')} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key, op, e.values ?? []));
  }
  return LabelSelector.of(reqs);
}
