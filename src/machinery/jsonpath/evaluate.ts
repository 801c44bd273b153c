/**
 * Evaluating a parsed JSONPath template over a decoded JSON object the way
 * client-go's JSONPath.FindResults does: every action starts from the root,
 * missing fields are errors unless allowed, filters compare values of the
 * same Go kind only, `range`/`end` repeat the nodes between them per value.
 * JSON numbers are Go int64s when integral and float64s otherwise; float
 * literals in a template stay floats (GoFloat).
 */
import { isPlainObject } from '../object';
import type { JPNode, ListNode } from './nodes';
import { compareGo, goTypeOf, GoFloat } from './values';

export interface EvalOptions {
  allowMissingKeys?: boolean;
}

interface RangeState {
  begin: number;
  inRange: number;
  end: number;
}

const isNil = (v: unknown) => v === null || v === undefined;

class Evaluator {
  private readonly st: RangeState = { begin: 0, inRange: 0, end: 0 };
  constructor(private readonly opts: EvalOptions) {}

  /** FindResults over `nodes` from `start`; `end` is where a range's `end` stopped it. */
  find(nodes: JPNode[], start: number, data: unknown): { results: unknown[][]; end?: number } {
    const full: unknown[][] = [];
    for (let i = start; i < nodes.length; i++) {
      const results = this.walk([data], nodes[i]);
      if (this.st.end > 0 && this.st.end <= this.st.inRange) {
        this.st.end--;
        return { results: full, end: i };
      }
      if (this.st.begin > 0) {
        this.st.begin--;
        this.st.inRange++;
        let endAt: number | undefined;
        for (const value of results.length > 0 ? results : [null]) {
          const inner = this.find(nodes, i + 1, value);
          if (results.length > 0) full.push(...inner.results);
          endAt = inner.end;
        }
        this.st.inRange--;
        if (endAt !== undefined) i = endAt;
        continue;
      }
      full.push(results);
    }
    return { results: full };
  }

  walk(input: unknown[], node: JPNode): unknown[] {
    switch (node.kind) {
      case 'list':
        return node.nodes.reduce((cur, n) => this.walk(cur, n), input);
      case 'text':
        return [node.text];
      case 'field':
        return this.field(input, node.name);
      case 'array':
        return this.array(input, node.params);
      case 'filter':
        return this.filter(input, node);
      case 'int':
        return input.map(() => node.value);
      case 'float':
        return input.map(() => new GoFloat(node.value));
      case 'bool':
        return input.map(() => node.value);
      case 'wildcard':
        return input.flatMap((v) => children(v));
      case 'recursive':
        return this.recursive(input);
      case 'union':
        return node.lists.flatMap((l) => this.walk(input, l));
      case 'identifier':
        if (node.name === 'range') {
          this.st.begin++;
          return input;
        }
        if (node.name === 'end') {
          if (this.st.inRange > 0) {
            this.st.end++;
            return [];
          }
          throw new Error('not in range, nothing to end');
        }
        throw new Error(`unrecognized identifier ${node.name}`);
    }
  }

  private field(input: unknown[], name: string): unknown[] {
    if (input.length === 0) return [];
    const out: unknown[] = [];
    for (const v of input) if (isPlainObject(v) && Object.prototype.hasOwnProperty.call(v, name) && v[name] !== undefined) out.push(v[name]);
    if (out.length === 0 && !this.opts.allowMissingKeys) throw new Error(`${name} is not found`);
    return out;
  }

  private array(input: unknown[], params: readonly { value: number; known: boolean; derived: boolean }[]): unknown[] {
    const out: unknown[] = [];
    for (const v of input) {
      if (isNil(v)) continue;
      if (!Array.isArray(v)) throw new Error(`${goTypeOf(v)} is not array or slice`);
      const len = v.length;
      let start = params[0].known ? params[0].value : 0;
      if (start < 0) start += len;
      let end = params[1].known ? params[1].value : len;
      if (end < 0 || (end === 0 && params[1].derived)) end += len;
      if (end === start) return out;
      if (start >= len || start < 0) throw new Error(`array index out of bounds: index ${start}, length ${len}`);
      if (end > len || end < 0) throw new Error(`array index out of bounds: index ${end - 1}, length ${len}`);
      if (start > end) throw new Error(`starting index ${start} is greater than ending index ${end}`);
      let step = 1;
      if (params[2].known) {
        if (params[2].value <= 0) throw new Error('step must be > 0');
        step = params[2].value;
      }
      for (let i = start; i < end; i += step) out.push(v[i]);
    }
    return out;
  }

  private recursive(input: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (const v of input) {
      if (isNil(v)) continue;
      const kids = children(v);
      if (kids.length > 0) out.push(v, ...this.recursive(kids));
    }
    return out;
  }

  private filter(input: unknown[], node: Extract<JPNode, { kind: 'filter' }>): unknown[] {
    const out: unknown[] = [];
    for (const v of input) {
      if (!Array.isArray(v)) throw new Error(`${isNil(v) ? '<nil>' : goTypeOf(v)} is not array or slice and cannot be filtered`);
      for (const item of v) {
        if (node.operator === 'exists') {
          if (this.tryWalk([item], node.left).length > 0) out.push(item);
          continue;
        }
        const lefts = this.walk([item], node.left);
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new Error('can only compare one element at a time');
        const rights = this.walk([item], node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new Error('can only compare one element at a time');
        if (compareGo(lefts[0], rights[0], node.operator)) out.push(item);
      }
    }
    return out;
  }

  /** An `exists` filter ignores errors: a missing field just does not match. */
  private tryWalk(input: unknown[], node: ListNode): unknown[] {
    try {
      return this.walk(input, node);
    } catch {
      return [];
    }
  }
}

/** The values a wildcard or recursive descent steps into: map values, list items, a string's bytes. */
function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  // Go visits map entries in random order; the object's own order is as good and stable.
  if (isPlainObject(v)) return Object.keys(v).map((k) => v[k]);
  if (typeof v === 'string') return [...Buffer.from(v, 'utf8')];
  return [];
}

/** FindResults: one list of values per top-level node (text or action). */
export function findResults(template: ListNode, data: unknown, opts: EvalOptions = {}): unknown[][] {
  return new Evaluator(opts).find(template.nodes, 0, data).results;
}
