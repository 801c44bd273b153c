/**
 * Kubernetes' JSONPath (client-go util/jsonpath) as kubectl and the API
 * server use it: a parsed template, its results over an object, and the
 * text Execute prints (each action's values joined by spaces).
 */
import { findResults } from './evaluate';
import type { ListNode } from './nodes';
import { parseJSONPath } from './parser';
import { printValue } from './values';

export interface JSONPathOptions {
  /** A missing field yields no value instead of an error (printer columns and field selectors allow them). */
  allowMissingKeys?: boolean;
}

export class JSONPath {
  private constructor(
    private readonly template: ListNode,
    private readonly opts: JSONPathOptions,
  ) {}

  /** Parses a template such as `{.spec.replicas}` or `{range .items[*]}{.name} {end}`; throws with client-go's message. */
  static parse(template: string, opts: JSONPathOptions = {}): JSONPath {
    return new JSONPath(parseJSONPath(template), opts);
  }

  /** One list of values per top-level piece of the template; throws on evaluation errors (`x is not found`). */
  findResults(data: unknown): unknown[][] {
    return findResults(this.template, data, this.opts);
  }

  /** What Execute writes. */
  execute(data: unknown): string {
    return this.findResults(data)
      .map((values) => values.map((v) => printValue(v)).join(' '))
      .join('');
  }
}

/**
 * A selectable field's value as upstream computes it: the path's single
 * result printed with fmt.Sprint, or "" when there is none.
 */
export function selectableFieldValue(obj: unknown, jsonPath: string): string {
  const results = JSONPath.parse(`{${jsonPath}}`, { allowMissingKeys: true }).findResults(obj);
  if (results.length === 0 || results[0].length === 0) return '';
  if (results.length > 1 || results[0].length > 1) throw new Error('unexpectedly received more than one JSON path result');
  const v = results[0][0];
  return v === null || v === undefined ? '' : printValue(v);
}
