/**
 * The status subresource of a custom resource, as upstream's statusStrategy:
 * a write through it changes status only; everything else, metadata
 * included, stays as stored (managedFields aside, which the field manager
 * rewrites).
 */
import type { SubresourceStrategy } from '../../machinery/resource-definition';
import { validateCustomResourceStatusUpdate } from '../../machinery/structural';
import { checkRules, kindOf, type ServedVersion } from './custom-resource.strategy';

export function statusSubresource(v: ServedVersion): SubresourceStrategy {
  return {
    verbs: ['get', 'patch', 'update'],
    resetObjectMeta: true,
    prepareForUpdate(obj, old) {
      const status = obj.status;
      for (const key of Object.keys(obj)) if (key !== 'metadata' && key !== 'status') delete obj[key];
      for (const [key, value] of Object.entries(old)) if (key !== 'metadata' && key !== 'status') obj[key] = structuredClone(value);
      if (status === undefined) delete obj.status;
    },
    validateUpdate: (obj, old, ctx) => checkRules(v, obj, old, validateCustomResourceStatusUpdate(obj, old, v.schema, kindOf(v)), ctx),
  };
}
