/**
 * CSIDriver strategy: v1 defaults and the dropping of fields whose feature
 * gate is off (kept on update when the stored object already uses them, so a
 * gate can be turned off without losing data).
 */
import type { KObject } from '../../machinery/object';
import type { Strategy, StrategyContext } from '../../machinery/resource-definition';
import { CsiDriverSpecObject, validateCsiDriver, validateCsiDriverUpdate } from './csi-driver.validation';

type SpecField = keyof CsiDriverSpecObject;

const gatedFields: Array<[SpecField, string]> = [
  ['nodeAllocatableUpdatePeriodSeconds', 'MutableCSINodeAllocatableCount'],
  ['preventPodSchedulingIfMissing', 'VolumeLimitScaling'],
];

/** Upstream's field order, so stored and returned objects read like upstream's. */
const fieldOrder: SpecField[] = [
  'attachRequired',
  'podInfoOnMount',
  'volumeLifecycleModes',
  'storageCapacity',
  'fsGroupPolicy',
  'tokenRequests',
  'requiresRepublish',
  'seLinuxMount',
  'nodeAllocatableUpdatePeriodSeconds',
  'serviceAccountTokenInSecrets',
  'preventPodSchedulingIfMissing',
];

const unset = (v: unknown) => v === undefined || v === null;

function ensureSpec(obj: KObject): CsiDriverSpecObject {
  // spec is a struct upstream: a missing or null spec decodes as empty.
  if (typeof obj.spec !== 'object' || obj.spec === null) obj.spec = {};
  return obj.spec as CsiDriverSpecObject;
}

export const csiDriverStrategy: Strategy = {
  prepareForCreate(obj: KObject, ctx: StrategyContext) {
    const spec = ensureSpec(obj);
    for (const [field, gate] of gatedFields) if (!ctx.gates.enabled(gate)) delete spec[field];
  },

  prepareForUpdate(obj: KObject, old: KObject, ctx: StrategyContext) {
    const spec = ensureSpec(obj);
    const prev = (old.spec ?? {}) as CsiDriverSpecObject;
    for (const [field, gate] of gatedFields) {
      if (!ctx.gates.enabled(gate) && unset(prev[field])) delete spec[field];
    }
  },

  applyDefaults(obj: KObject, ctx: StrategyContext) {
    const spec = ensureSpec(obj);
    const s = spec as Record<string, unknown>;
    const byDefault = (field: SpecField, value: unknown) => {
      if (unset(s[field])) s[field] = value;
    };
    byDefault('attachRequired', true);
    byDefault('podInfoOnMount', false);
    byDefault('storageCapacity', false);
    byDefault('fsGroupPolicy', 'ReadWriteOnceWithFSType');
    if (!spec.volumeLifecycleModes?.length) spec.volumeLifecycleModes = ['Persistent'];
    byDefault('requiresRepublish', false);
    byDefault('seLinuxMount', false);
    // Like upstream's v1 defaults, this one only applies while its gate is on.
    if (ctx.gates.enabled('VolumeLimitScaling')) byDefault('preventPodSchedulingIfMissing', false);
  },

  validate: (obj) => validateCsiDriver(obj),
  validateUpdate: (obj, old) => validateCsiDriverUpdate(obj, old),

  canonicalize(obj: KObject) {
    const spec = ensureSpec(obj) as Record<string, unknown>;
    const ordered: Record<string, unknown> = {};
    for (const f of fieldOrder) if (!unset(spec[f])) ordered[f] = spec[f];
    for (const [k, v] of Object.entries(spec)) if (!(k in ordered) && !unset(v)) ordered[k] = v;
    obj.spec = ordered;
  },
};
