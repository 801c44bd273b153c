/**
 * The label selector string syntax (`?labelSelector=`), parsed the way
 * upstream's labels.Parse lexes and parses it, so that error texts match:
 * `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`,
 * joined by commas (AND), whitespace allowed between tokens.
 */
import { errorText, FieldPath } from './field-errors';
import {
  LabelSelector,
  LabelSelectorError,
  Requirement,
  SelectorOperator,
  aggregateText,
  labelKeyError,
  requirementErrors,
} from './label-requirements';

export * from './label-requirements';

type Tok =
  | 'error'
  | 'end'
  | 'closedPar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

const string2token: Record<string, Tok> = {
  ')': 'closedPar',
  ',': 'comma',
  '!': 'doesNotExist',
  '==': 'doubleEquals',
  '=': 'equals',
  '>': 'greaterThan',
  in: 'in',
  '<': 'lessThan',
  '!=': 'notEquals',
  notin: 'notIn',
  '(': 'openPar',
};
const tokenOf = (s: string): Tok | undefined => (Object.prototype.hasOwnProperty.call(string2token, s) ? string2token[s] : undefined);

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string) => '=!(),><'.includes(ch) && ch !== '';

interface Item {
  tok: Tok;
  lit: string;
}

/** Splits the input into tokens; a NUL ends the input, as upstream's byte reader does. */
function lex(s: string): Item[] {
  let pos = 0;
  const read = () => (pos < s.length && s[pos] !== '\0' ? s[pos++] : (pos++, ''));
  const unread = () => void pos--;
  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    if (ch === '') {
      items.push({ tok: 'end', lit: '' });
      return items;
    }
    unread();
    if (isSpecial(ch)) {
      // Longest run of symbols that still forms a token (`!=`, `==`), else one symbol.
      let buf = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (!isSpecial(c)) {
          unread();
          break;
        }
        buf += c;
        const t = tokenOf(buf);
        if (t) last = { tok: t, lit: buf };
        else if (last) {
          unread();
          break;
        }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
    } else {
      let buf = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecial(c) || isWhitespace(c)) {
          unread();
          break;
        }
        buf += c;
      }
      items.push({ tok: tokenOf(buf) ?? 'identifier', lit: buf });
    }
  }
}

/** A failure inside one requirement; parse() prefixes it with `unable to parse requirement: `. */
class RequirementFailure extends Error {}

const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private pos = 0;
  constructor(
    private readonly items: Item[],
    private readonly path: FieldPath | undefined,
  ) {}

  /** In value position, `in`/`notin` are plain identifiers. */
  private asValue(it: Item): Item {
    return it.tok === 'in' || it.tok === 'notIn' ? { tok: 'identifier', lit: it.lit } : it;
  }
  private lookahead(): Item {
    return this.asValue(this.items[this.pos]);
  }
  private consume(asValue = true): Item {
    const it = this.items[this.pos++];
    return asValue ? this.asValue(it) : it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead();
      if (tok === 'end') return reqs;
      if (tok !== 'identifier' && tok !== 'doesNotExist') {
        throw new LabelSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
      try {
        reqs.push(this.parseRequirement());
      } catch (e) {
        if (e instanceof RequirementFailure) throw new LabelSelectorError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const next = this.consume();
      if (next.tok === 'end') return reqs;
      if (next.tok !== 'comma') throw new LabelSelectorError(`found '${next.lit}', expected: ',' or 'end of string'`);
      const after = this.lookahead();
      if (after.tok !== 'identifier' && after.tok !== 'doesNotExist') {
        throw new LabelSelectorError(`found '${after.lit}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred) return this.build(key, inferred, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    // Upstream collects values in a set: sorted, without duplicates.
    return this.build(key, op, [...new Set(values)].sort());
  }

  private build(key: string, op: SelectorOperator, values: string[]): Requirement {
    const errs = requirementErrors(key, op, values, this.path);
    if (errs.length) throw new RequirementFailure(aggregateText(errs));
    return { key, operator: op, values };
  }

  private parseKeyAndInferOperator(): [string, SelectorOperator | undefined] {
    let op: SelectorOperator | undefined;
    let it = this.consume();
    if (it.tok === 'doesNotExist') {
      op = '!';
      it = this.consume();
    }
    if (it.tok !== 'identifier') throw new RequirementFailure(`found '${it.lit}', expected: identifier`);
    const keyErr = labelKeyError(it.lit, this.path ?? '<nil>');
    if (keyErr) throw new RequirementFailure(errorText(keyErr));
    const next = this.lookahead().tok;
    if ((next === 'end' || next === 'comma') && op !== '!') op = 'exists';
    return [it.lit, op];
  }

  private parseOperator(): SelectorOperator {
    const { tok, lit } = this.consume(false);
    const ops: Partial<Record<Tok, SelectorOperator>> = {
      in: 'in',
      equals: '=',
      doubleEquals: '==',
      greaterThan: 'gt',
      lessThan: 'lt',
      notIn: 'notin',
      notEquals: '!=',
    };
    const op = ops[tok];
    if (!op) throw new RequirementFailure(`found '${lit}', expected: ${binaryOperators}`);
    return op;
  }

  private parseValues(): string[] {
    const open = this.consume();
    if (open.tok !== 'openPar') throw new RequirementFailure(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead();
    if (tok === 'identifier' || tok === 'comma') {
      const values = this.parseIdentifiersList();
      // Upstream reports the literal seen before the list here.
      if (this.consume().tok !== 'closedPar') throw new RequirementFailure(`found '${lit}', expected: ')'`);
      return values;
    }
    if (tok === 'closedPar') {
      this.consume();
      return [''];
    }
    throw new RequirementFailure(`found '${lit}', expected: ',', ')' or identifier`);
  }

  /** Empty entries (`(,a)`, `(a,,b)`, `(a,)`) count as the empty value. */
  private parseIdentifiersList(): string[] {
    const values: string[] = [];
    for (;;) {
      const { tok, lit } = this.consume();
      if (tok === 'identifier') {
        values.push(lit);
        const next = this.lookahead();
        if (next.tok === 'comma') continue;
        if (next.tok === 'closedPar') return values;
        throw new RequirementFailure(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === 'comma') {
        if (values.length === 0) values.push('');
        const next = this.lookahead().tok;
        if (next === 'closedPar') {
          values.push('');
          return values;
        }
        if (next === 'comma') {
          this.consume();
          values.push('');
        }
      } else {
        throw new RequirementFailure(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const ahead = this.lookahead().tok;
    if (ahead === 'end' || ahead === 'comma') return [''];
    const { tok, lit } = this.consume();
    if (tok === 'identifier') return [lit];
    throw new RequirementFailure(`found '${lit}', expected: identifier`);
  }
}

/**
 * Parses a label selector string; the empty string selects everything.
 * Throws LabelSelectorError with upstream's message. `path` is the field
 * path upstream threads through (none for query parameters, printed `<nil>`).
 */
export function parseLabelSelector(selector: string, path?: FieldPath): LabelSelector {
  return LabelSelector.of(new Parser(lex(selector), path).parse());
}
