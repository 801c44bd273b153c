/**
 * Label and field selectors of a list or watch, compiled once into a match
 * function over objects. Field selectors know metadata.name and
 * metadata.namespace plus the kind's own declared fields.
 */
import { errors } from '../machinery/status';
import { KObject } from '../machinery/object';
import { ResourceDefinition } from '../machinery/resource-definition';
import { parseLabelSelector, LabelSelectorError } from '../machinery/labels';
import { parseFieldSelector, FieldSelectorError } from '../machinery/fields';

export interface Predicate {
  matches(obj: KObject): boolean;
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

export function compilePredicate(def: ResourceDefinition, labelSelector?: string, fieldSelector?: string): Predicate {
  let labels: ReturnType<typeof parseLabelSelector> | undefined;
  let fields: ReturnType<typeof parseFieldSelector> | undefined;
  try {
    if (labelSelector && labelSelector.trim() !== '') labels = parseLabelSelector(labelSelector);
  } catch (e) {
    if (e instanceof LabelSelectorError) throw errors.badRequest((e as Error).message);
    throw e;
  }
  try {
    if (fieldSelector && fieldSelector.trim() !== '') fields = parseFieldSelector(fieldSelector);
  } catch (e) {
    if (e instanceof FieldSelectorError) throw errors.badRequest((e as Error).message);
    throw e;
  }
  const getters = fieldGetters(def);
  let name: string | undefined;
  let namespace: string | undefined;
  for (const r of fields?.requirements ?? []) {
    if (!getters[r.field]) {
      const known = Object.keys(getters).map((k) => JSON.stringify(k)).join(', ');
      throw errors.badRequest(`"${r.field}" is not a known field selector: only ${known}`);
    }
    if (r.operator !== '!=' && r.field === 'metadata.name') name = r.value;
    if (r.operator !== '!=' && r.field === 'metadata.namespace') namespace = r.value;
  }
  const empty = !labels && !fields;
  return {
    empty,
    name,
    namespace,
    matches(obj: KObject): boolean {
      if (labels && !labels.matches(obj.metadata.labels ?? {})) return false;
      if (fields && !fields.matches((f: string) => getters[f]?.(obj))) return false;
      return true;
    },
  };
}
