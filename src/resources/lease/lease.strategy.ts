/**
 * Lease strategy: coordinated-election fields dropped while their gate is
 * off (unless the stored lease already uses them), and MicroTime fields
 * decoded strictly and stored as UTC with six fractional digits.
 */
import type { KObject } from '../../machinery/object';
import type { Strategy, StrategyContext } from '../../machinery/resource-definition';
import { errors } from '../../machinery/status';
import { LeaseSpecObject, validateLease, validateLeaseUpdate } from './lease.validation';
import { MicroTimeError, formatMicroTime, parseMicroTime } from '../../machinery/micro-time';

const GATE = 'CoordinatedLeaderElection';
const gatedFields = ['strategy', 'preferredHolder'] as const;
const timeFields = ['acquireTime', 'renewTime'] as const;

function ensureSpec(obj: KObject): LeaseSpecObject {
  // spec is a struct upstream: it is always there, possibly empty.
  if (typeof obj.spec !== 'object' || obj.spec === null) obj.spec = {};
  return obj.spec as LeaseSpecObject;
}

export const leaseStrategy: Strategy = {
  prepareForCreate(obj: KObject, ctx: StrategyContext) {
    const spec = ensureSpec(obj);
    if (!ctx.gates.enabled(GATE)) for (const f of gatedFields) delete spec[f];
  },

  prepareForUpdate(obj: KObject, old: KObject, ctx: StrategyContext) {
    const spec = ensureSpec(obj);
    const prev = (old.spec ?? {}) as LeaseSpecObject;
    if (ctx.gates.enabled(GATE)) return;
    for (const f of gatedFields) if (prev[f] === undefined || prev[f] === null) delete spec[f];
  },

  /** Runs on every decoded body: an unparsable time is a decoding error (400), as upstream. */
  applyDefaults(obj: KObject) {
    const spec = ensureSpec(obj) as Record<string, unknown>;
    // JSON null is an unset pointer upstream: it is not stored.
    for (const [k, v] of Object.entries(spec)) if (v === null) delete spec[k];
    for (const f of timeFields) {
      const v = spec[f];
      if (typeof v === 'string') {
        try {
          parseMicroTime(v);
        } catch (e) {
          if (!(e instanceof MicroTimeError)) throw e;
          throw errors.badRequest(`Lease in version "v1" cannot be handled as a Lease: ${e.message}`);
        }
      }
    }
  },

  validate: (obj) => validateLease(obj),
  validateUpdate: (obj) => validateLeaseUpdate(obj),

  canonicalize(obj: KObject) {
    const spec = ensureSpec(obj);
    for (const f of timeFields) {
      const v = spec[f];
      if (typeof v === 'string') spec[f] = formatMicroTime(parseMicroTime(v));
    }
  },
};
