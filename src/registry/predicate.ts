/**
 * Label, field and shard selectors of a list or watch, compiled once into a
 * match function. Field selectors know metadata.name and metadata.namespace
 * plus the kind's own declared fields; the shard selector (behind the
 * ShardedListAndWatch gate) hashes metadata.uid or metadata.namespace.
 */
import { errors } from '../machinery/status';
import { KObject, ownValue } from '../machinery/object';
import { ResourceDefinition } from '../machinery/resource-definition';
import type { FeatureGates } from '../machinery/feature-gates';
import { parseLabelSelector, LabelSelectorError } from '../machinery/labels';
import { parseFieldSelector, FieldSelectorError } from '../machinery/fields';
import { parseShardSelector, ShardSelectorError } from '../machinery/shard-selector';

/** Reads a selectable field (fieldSelector syntax, plus metadata.uid for shards). */
export type FieldReader = (field: string) => string | undefined;

export interface Predicate {
  matches(obj: KObject): boolean;
  /** The same test on pre-extracted attributes (the watch cache keeps these instead of objects). */
  matchesAttributes(labels: Readonly<Record<string, string>> | undefined, field: FieldReader): boolean;
  /** True when no selector narrows the list (remainingItemCount is only given then). */
  empty: boolean;
  /** metadata.name=x narrows a list to one key. */
  name?: string;
  /** metadata.namespace=x narrows an all-namespaces list to one namespace. */
  namespace?: string;
}

export function fieldGetters(def: ResourceDefinition): Record<string, (obj: KObject) => string | undefined> {
  const base: Record<string, (obj: KObject) => string | undefined> = { 'metadata.name': (o) => o.metadata.name ?? '' };
  if (def.namespaced) base['metadata.namespace'] = (o) => o.metadata.namespace ?? '';
  return { ...base, ...def.fieldSelectors };
}

/** The shard selector of a request, or undefined while the gate is off (the parameter is then ignored). */
export function shardSelectorOf(opts: { shardSelector?: string }, gates: FeatureGates | undefined): string | undefined {
  return gates?.enabled('ShardedListAndWatch') && opts.shardSelector ? opts.shardSelector : undefined;
}

function parse<T>(fn: () => T, errorType: new (...args: never[]) => Error, prefix = ''): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof errorType) throw errors.badRequest(`${prefix}${e.message}`);
    throw e;
  }
}

export function compilePredicate(def: ResourceDefinition, labelSelector?: string, fieldSelector?: string, shardSelector?: string): Predicate {
  const labels = labelSelector && labelSelector.trim() !== '' ? parse(() => parseLabelSelector(labelSelector), LabelSelectorError) : undefined;
  const fields = fieldSelector && fieldSelector.trim() !== '' ? parse(() => parseFieldSelector(fieldSelector), FieldSelectorError) : undefined;
  const shard = shardSelector !== undefined ? parse(() => parseShardSelector(shardSelector), ShardSelectorError, 'invalid shardSelector: ') : undefined;
  const getters = fieldGetters(def);
  let name: string | undefined;
  let namespace: string | undefined;
  for (const r of fields?.requirements ?? []) {
    if (!ownValue(getters, r.field)) {
      if (def.unknownFieldSelectorMessage) throw errors.badRequest(def.unknownFieldSelectorMessage(r.field));
      const known = Object.keys(getters).map((k) => JSON.stringify(k)).join(', ');
      throw errors.badRequest(`"${r.field}" is not a known field selector: only ${known}`);
    }
    if (r.operator !== '!=' && r.field === 'metadata.name') name = r.value;
    if (r.operator !== '!=' && r.field === 'metadata.namespace') namespace = r.value;
  }
  const matchesAttributes = (objLabels: Readonly<Record<string, string>> | undefined, field: FieldReader): boolean => {
    if (labels && !labels.matches(objLabels ?? {})) return false;
    if (fields && !fields.matches(field)) return false;
    if (shard && !shard.matches(field(shard.field))) return false;
    return true;
  };
  return {
    empty: !labels && !fields && !shard,
    name,
    namespace,
    matchesAttributes,
    matches(obj: KObject): boolean {
      return matchesAttributes(obj.metadata.labels, (f) => (f === 'metadata.uid' ? obj.metadata.uid : getters[f]?.(obj)));
    },
  };
}
