/**
 * Validation ratcheting on update (upstream's CRDValidationRatcheting): an
 * error inside a part of the object that equals its old counterpart is
 * dropped, so a stored object that a tightened schema no longer accepts can
 * still be updated elsewhere. Old and new values are correlated as upstream's
 * CorrelatedObject does: object fields by name, items of
 * `x-kubernetes-list-type: map` lists by their keys; other list items and
 * fields without a schema are not correlated.
 */
import { Correlation, type CorrelatedSchema } from './cel-correlation';
import { ChildValidators, validateNode } from './value-validator';
import { Result } from './value-result';
import type { VNode } from './value-schema';

/** Correlation over the compiled schema nodes. */
const nodeReads: CorrelatedSchema<VNode> = {
  field: (n, name) => n.propertyMap?.get(name) ?? n.additionalProperties?.schema,
  mapList: (n) => (n.listType === 'map' && n.items ? { items: n.items, keys: n.types[0] === 'array' ? n.listMapKeys : [] } : undefined),
};

type Correlated = Correlation<VNode>;

function ratchet(node: VNode, path: string, corr: Correlated): Result {
  const children: ChildValidators = {
    field: (key, sub, p, value) => {
      const c = corr.key(key);
      // apiVersion and kind are converted alike on both sides, so changes to them cannot be seen.
      if (!c || (path === '' && (key === 'kind' || key === 'apiVersion'))) return validateNode(sub, p, value);
      return ratchet(sub, p, c);
    },
    index: (i, sub, p, value) => {
      const c = corr.index(i);
      return c ? ratchet(sub, p, c) : validateNode(sub, p, value);
    },
  };
  const res = validateNode(node, path, corr.value, children);
  if (res.valid || !corr.deepEqual()) return res;
  const kept = new Result();
  kept.matchCount = res.matchCount;
  return kept;
}

/** Validates `value` against `node`, dropping errors in parts unchanged from `old`. */
export function validateRatcheting(node: VNode, value: unknown, old: unknown): Result {
  return ratchet(node, '', new Correlation(value, old, node, nodeReads));
}
