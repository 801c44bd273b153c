/**
 * Label selector requirements and selectors (upstream labels/selector.go,
 * 1.32): construction with upstream's checks and messages, matching, and
 * the canonical string form. The string parser lives in labels.ts.
 */
import { uniqueStrings } from './unique-strings';
import { FieldError, FieldPath, RenderedValue, errorText, fieldErrors } from './field-errors';
import { isQualifiedName, isValidLabelValue } from './validation/names';

/** upstream selection.Operator values. */
export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

export const VALID_REQUIREMENT_OPERATORS: readonly SelectorOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

export interface Requirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>>;

/** A selector that failed to parse or build; the message is upstream's error text. */
export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
}

/** Go's error text of an ErrorList aggregate: duplicates dropped, several bracketed. */
export function aggregateText(errs: FieldError[]): string {
  const texts = uniqueStrings(errs.map(errorText));
  return texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
}

/** A child of an optional root; upstream's nil *field.Path prints as `<nil>` and children start fresh. */
export function childOf(root: FieldPath | undefined, name: string): FieldPath {
  return root ? root.child(name) : FieldPath.root(name);
}

export function labelKeyError(key: string, path: FieldPath | string): FieldError | undefined {
  const msgs = isQualifiedName(key);
  return msgs.length ? fieldErrors.invalid(path, key, msgs.join('; ')) : undefined;
}

/** strconv.ParseInt(s, 10, 64). */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined;
}

/** The checks of upstream NewRequirement; empty when the requirement is valid. */
export function requirementErrors(key: string, op: string, values: readonly string[], path?: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const keyErr = labelKeyError(key, childOf(path, 'key'));
  if (keyErr) errs.push(keyErr);
  const valuePath = childOf(path, 'values');
  // Only a nil slice can be empty when it reaches these checks; Go prints it so.
  const shown: unknown = values.length ? [...values] : new RenderedValue('[]string(nil)');
  switch (op) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(fieldErrors.invalid(valuePath, shown, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(fieldErrors.invalid(valuePath, shown, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(fieldErrors.invalid(valuePath, shown, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(fieldErrors.invalid(valuePath, shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(fieldErrors.invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
    default:
      errs.push(fieldErrors.notSupported(childOf(path, 'operator'), op, VALID_REQUIREMENT_OPERATORS));
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(fieldErrors.invalid(valuePath.index(i).key(key), v, msgs.join('; ')));
  });
  return errs;
}

/** upstream NewRequirement: throws LabelSelectorError with the aggregate text. */
export function newRequirement(key: string, op: SelectorOperator, values: readonly string[], path?: FieldPath): Requirement {
  const errs = requirementErrors(key, op, values, path);
  if (errs.length) throw new LabelSelectorError(aggregateText(errs));
  return { key, operator: op, values: [...values] };
}

export function requirementMatches(r: Requirement, labels: Labels | undefined): boolean {
  const ls = labels ?? {};
  const has = Object.prototype.hasOwnProperty.call(ls, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(ls[r.key]);
    case 'notin':
    case '!=':
      // Objects without the key match too.
      return !has || !r.values.includes(ls[r.key]);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const have = parseInt64(ls[r.key]);
      const want = parseInt64(r.values[0]);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

const opText: Record<SelectorOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

export function requirementString(r: Requirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${opText[r.operator]}${set ? `(${vals})` : vals}`;
}

/** An AND of requirements, sorted by key; or the selector that matches nothing. */
export class LabelSelector {
  private constructor(
    readonly requirements: readonly Requirement[],
    private readonly nothing: boolean,
  ) {}

  static everything(): LabelSelector {
    return new LabelSelector([], false);
  }

  static nothing(): LabelSelector {
    return new LabelSelector([], true);
  }

  static of(requirements: readonly Requirement[]): LabelSelector {
    return new LabelSelector([...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)), false);
  }

  add(...reqs: Requirement[]): LabelSelector {
    return this.nothing ? this : LabelSelector.of([...this.requirements, ...reqs]);
  }

  matches(labels: Labels | undefined): boolean {
    return !this.nothing && this.requirements.every((r) => requirementMatches(r, labels));
  }

  /** True for the match-everything selector (as upstream's Empty()). */
  isEmpty(): boolean {
    return !this.nothing && this.requirements.length === 0;
  }

  matchesNothing(): boolean {
    return this.nothing;
  }

  /** The single value `key` must have, if the selector pins it (=, ==, or in with one value). */
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (!r || !['=', '==', 'in'].includes(r.operator) || r.values.length !== 1) return undefined;
    return r.values[0];
  }

  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}
