/**
 * The parser of Kubernetes' JSONPath templates, as client-go's: text with
 * `{...}` actions holding fields (`.a.b`, `['a']`), array indices and slices,
 * unions, filters (`[?(@.type=="Ready")]`), wildcards, recursive descent and
 * `range`/`end`. Errors read as client-go's (`unclosed action`,
 * `unrecognized character in action: U+0023 '#'`).
 */
import { ArrayParam, JPNode, ListNode, listNode } from './nodes';

const isSpace = (c: string) => c === ' ' || c === '\t';
const isEndOfLine = (c: string) => c === '\r' || c === '\n';
const isAlphaNumeric = (c: string) => c === '_' || /^[\p{L}\p{Nd}]$/u.test(c);
const isDigit = (c: string) => /^\p{Nd}$/u.test(c);
/** A character ending an identifier or a field name. */
const isTerminator = (c: string | undefined) => c === undefined || isSpace(c) || isEndOfLine(c) || '.,[]$@{}'.includes(c);

const dictKey = /^'([^']*)'$/;
const sliceOperator = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const filterParts = /^([^!<>=]+)([!<>=]+)(.+?)$/;

/** Go's %#U for a code point: U+0023 '#'. */
function goRuneName(c: string): string {
  const cp = c.codePointAt(0)!;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(c) ? `${hex} '${c}'` : hex;
}

/** strconv.Atoi: optional sign and decimal digits only. */
const atoi = (s: string): number | undefined => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);

const goEscapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };

/** client-go's UnquoteExtend: strconv.Unquote that also takes single-quoted strings. */
function unquote(s: string): string {
  const quote = s[0];
  if (s.length < 2 || s[s.length - 1] !== quote || (quote !== '"' && quote !== "'")) throw new Error('invalid syntax');
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === quote) throw new Error('invalid syntax');
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) throw new Error('invalid syntax');
    if (goEscapes[e] !== undefined) out += goEscapes[e];
    else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) throw new Error('invalid syntax');
      out += String.fromCodePoint(parseInt(hex, 16));
      i += n;
    } else if (/[0-7]/.test(e)) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw new Error('invalid syntax');
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else throw new Error('invalid syntax');
  }
  return out;
}

class Parser {
  private input = '';
  private pos = 0;
  private start = 0;
  readonly root: ListNode = listNode();

  parse(text: string): ListNode {
    this.input = text;
    this.parseText(this.root);
    return this.root;
  }

  private next(): string | undefined {
    const c = this.input.codePointAt(this.pos);
    if (c === undefined) return undefined;
    const ch = String.fromCodePoint(c);
    this.pos += ch.length;
    return ch;
  }

  private peek(): string | undefined {
    const c = this.input.codePointAt(this.pos);
    return c === undefined ? undefined : String.fromCodePoint(c);
  }

  private backup(ch: string | undefined): void {
    if (ch !== undefined) this.pos -= ch.length;
  }

  private consume(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private parseText(cur: ListNode): void {
    const open = this.input.indexOf('{', this.pos);
    if (open < 0) {
      this.pos = this.input.length;
      if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consume() });
      return;
    }
    this.pos = open;
    if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consume() });
    this.pos += 1;
    this.consume();
    const action = listNode();
    cur.nodes.push(action);
    this.parseInsideAction(action);
  }

  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consume();
        return this.parseText(this.root);
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const c = this.next();
      if (c === undefined || isEndOfLine(c)) throw new Error('unclosed action');
      if (c === ' ' || c === '@' || c === '$') this.consume();
      else if (c === '[') this.parseArray(cur);
      else if (c === '"' || c === "'") this.parseQuote(cur, c);
      else if (c === '.') this.parseField(cur);
      else if (c === '+' || c === '-' || isDigit(c)) {
        this.backup(c);
        this.parseNumber(cur);
      } else if (isAlphaNumeric(c)) {
        this.backup(c);
        this.parseIdentifier(cur);
      } else throw new Error(`unrecognized character in action: ${goRuneName(c)}`);
    }
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      const c = this.next();
      if (isTerminator(c)) {
        this.backup(c);
        break;
      }
    }
    const value = this.consume();
    cur.nodes.push(value === 'true' || value === 'false' ? { kind: 'bool', value: value === 'true' } : { kind: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes[cur.nodes.length - 1]?.kind === 'recursive') throw new Error('invalid multiple recursive descent');
    this.pos += 2;
    this.consume();
    cur.nodes.push({ kind: 'recursive' });
    const c = this.peek();
    if (c !== undefined && isAlphaNumeric(c)) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const sign = this.peek();
    if (sign === '+' || sign === '-') this.next();
    for (;;) {
      const c = this.next();
      if (c !== '.' && (c === undefined || !isDigit(c))) {
        this.backup(c);
        break;
      }
    }
    const value = this.consume();
    const i = atoi(value);
    if (i !== undefined) cur.nodes.push({ kind: 'int', value: i });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ kind: 'float', value: Number(value) });
    else throw new Error(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const c = this.next();
      if (c === undefined || c === '\n') throw new Error('unterminated array');
      if (c === ']') break;
    }
    let text = this.consume().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ kind: 'union', lists: parts.map((p) => parseAction(`[${p.trim()}]`)) });
      return;
    }
    const key = dictKey.exec(text);
    if (key) {
      cur.nodes.push(...parseAction(`.${key[1]}`).nodes);
      return;
    }
    const slice = sliceOperator.exec(text);
    if (!slice) throw new Error(`invalid array index ${text}`);
    const params: ArrayParam[] = [];
    for (let i = 0; i < 3; i++) {
      let v = slice[i + 1] ?? '';
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params.push({ value: 0, known: false, derived: false });
        else {
          const n = atoi(v);
          if (n === undefined) throw new Error(`array index ${v} is not a number`);
          params.push({ value: n, known: true, derived: false });
        }
      } else if (i === 1) params.push({ value: params[0].value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false, derived: false });
    }
    cur.nodes.push({ kind: 'array', params: params as [ArrayParam, ArrayParam, ArrayParam] });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consume();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const c = this.next();
      if (c === undefined || c === '\n') throw new Error('unterminated filter');
      if (c === '"' || c === "'") {
        if (!begin) {
          begin = true;
          pair = c;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && c === pair) end = true;
      } else if (c === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new Error('unclosed array expect ]');
    const text = this.consume().slice(0, -2);
    const m = filterParts.exec(text);
    if (!m) cur.nodes.push({ kind: 'filter', left: parseAction(text), right: listNode(), operator: 'exists' });
    else cur.nodes.push({ kind: 'filter', left: parseAction(m[1]), right: parseAction(m[3]), operator: m[2] });
  }

  private parseQuote(cur: ListNode, quote: string): void {
    for (;;) {
      const c = this.next();
      if (c === undefined || c === '\n') throw new Error('unterminated quoted string');
      if (c === quote && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consume();
    try {
      cur.nodes.push({ kind: 'text', text: unquote(value) });
    } catch (e) {
      throw new Error(`unquote string ${value} error ${(e as Error).message}`);
    }
  }

  private parseField(cur: ListNode): void {
    this.consume();
    for (;;) {
      const c = this.next();
      if (c === '\\') this.next();
      else if (isTerminator(c)) {
        this.backup(c);
        break;
      }
    }
    const value = this.consume();
    cur.nodes.push(value === '*' ? { kind: 'wildcard' } : { kind: 'field', name: value.replace(/\\/g, '') });
  }
}

/** The nodes of one action's text, parsed as `{text}`. */
function parseAction(text: string): ListNode {
  const root = new Parser().parse(`{${text}}`);
  return root.nodes[0] as ListNode;
}

/** Parses a template; throws with client-go's message on a syntax error. */
export function parseJSONPath(template: string): ListNode {
  return new Parser().parse(template);
}

export type { JPNode };
