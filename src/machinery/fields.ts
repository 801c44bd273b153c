/**
 * Field selectors (`?fieldSelector=`), as upstream fields/selector.go (1.32):
 * comma-separated `field=value`, `field==value`, `field!=value` terms, ANDed.
 * `\`, `,` and `=` in values are escaped with a backslash. No whitespace
 * trimming: `a = b` is field `a ` and value ` b`, as upstream.
 */

export type FieldSelectorOperator = '=' | '==' | '!=';

export interface FieldRequirement {
  readonly field: string;
  /** Upstream stores both `=` and `==` as Equals. */
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** Reads a field of an object; undefined is treated as the empty string. */
export type FieldGetter = (field: string) => string | undefined;

export class FieldSelectorError extends Error {
  override readonly name = 'FieldSelectorError';
}

export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Upstream prints the rune with %v, i.e. as its number.
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas that are not escaped. */
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** The first operator occurrence from the left; at one position `!=` and `==` win over `=`. */
function splitTerm(term: string): [string, FieldSelectorOperator, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

export class FieldSelector {
  private constructor(
    readonly requirements: readonly FieldRequirement[],
    private readonly nothing: boolean,
  ) {}

  static everything(): FieldSelector {
    return new FieldSelector([], false);
  }

  static nothing(): FieldSelector {
    return new FieldSelector([], true);
  }

  static of(requirements: readonly FieldRequirement[]): FieldSelector {
    return new FieldSelector([...requirements], false);
  }

  matches(get: FieldGetter): boolean {
    if (this.nothing) return false;
    return this.requirements.every((r) => ((get(r.field) ?? '') === r.value) === (r.operator === '='));
  }

  isEmpty(): boolean {
    return !this.nothing && this.requirements.length === 0;
  }

  /** The value an `=` term pins `field` to (turns a list into a single-key read). */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /**
   * Rewrites each term (upstream Transform, used for field label conversion);
   * a term mapped to an empty field and value is dropped. Throws what `fn` throws.
   */
  transform(fn: (field: string, value: string) => [string, string]): FieldSelector {
    if (this.nothing) return this;
    const out: FieldRequirement[] = [];
    for (const r of this.requirements) {
      const [field, value] = fn(r.field, r.value);
      if (field !== '' || value !== '') out.push({ field, operator: r.operator, value });
    }
    return new FieldSelector(out, false);
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** Parses a field selector; the empty string selects everything. Throws FieldSelectorError. */
export function parseFieldSelector(selector: string): FieldSelector {
  // Upstream sorts the raw terms before parsing them.
  const parts = splitTerms(selector).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    reqs.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(rhs) });
  }
  return FieldSelector.of(reqs);
}
