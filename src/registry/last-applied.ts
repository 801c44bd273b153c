/**
 * kubectl's `last-applied-configuration` annotation under server-side apply,
 * as upstream keeps it: when manager "kubectl" applies to an object that has
 * the annotation, the server rewrites it to the applied configuration (so a
 * later client-side apply still computes the right patch), and conflicts on
 * fields whose live value still equals the annotation's are taken over
 * without force (the client-side to server-side apply upgrade).
 */
import { compare, FieldSet, goJson, toFieldSet, validateConfig } from '../machinery/managed-fields';
import { isPlainObject, KObject } from '../machinery/object';
import { apiVersionOf, ResourceDefinition } from '../machinery/resource-definition';
import { kindSchema } from '../machinery/schema/schema';
import { withoutManagedFields } from './managed-fields';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** Fields the annotation sets to the value they still have; undefined when there is no usable annotation. */
export function allowedByLastApplied(def: ResourceDefinition, live: KObject): FieldSet | undefined {
  const raw = live.metadata.annotations?.[lastAppliedAnnotation];
  if (!raw) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isPlainObject(last) || last.apiVersion !== apiVersionOf(def)) return undefined;
  const schema = kindSchema(def);
  if (validateConfig(structuredClone(last), schema, true).errors.length) return undefined;
  const cmp = compare(last, withoutManagedFields(live), schema);
  return toFieldSet(last, schema).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** The annotation becomes the applied configuration (without the annotation itself), as Go encodes it. */
export function rewriteLastApplied(obj: KObject, applied: Record<string, unknown>): void {
  const copy = structuredClone(applied) as { metadata?: { annotations?: Record<string, string> } };
  if (copy.metadata?.annotations) delete copy.metadata.annotations[lastAppliedAnnotation];
  obj.metadata.annotations = { ...obj.metadata.annotations, [lastAppliedAnnotation]: `${goJson(copy)}\n` };
}
