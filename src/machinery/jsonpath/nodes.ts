/** The parse tree of Kubernetes' JSONPath templates (client-go util/jsonpath). */

export type JPNode =
  | { kind: 'list'; nodes: JPNode[] }
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string }
  | { kind: 'identifier'; name: string }
  | { kind: 'array'; params: [ArrayParam, ArrayParam, ArrayParam] }
  | { kind: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'union'; lists: ListNode[] };

export type ListNode = Extract<JPNode, { kind: 'list' }>;

/** One of start, end and step of `[start:end:step]`; `derived` marks the end implied by a single index. */
export interface ArrayParam {
  value: number;
  known: boolean;
  derived: boolean;
}

export const listNode = (): ListNode => ({ kind: 'list', nodes: [] });
