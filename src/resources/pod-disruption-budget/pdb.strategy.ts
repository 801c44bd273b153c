/**
 * PDB strategy: a fresh status on create, and the /status writer's view
 * (the spec stays as stored).
 */
import type { KObject } from '../../machinery/object';
import type { PdbObject, PdbStatusObject } from './pdb.validation';

/** Upstream's status struct always serializes these four counts, zero when unset. */
const countFields = ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const;

function withCounts(status: PdbStatusObject | undefined): PdbStatusObject {
  const s: PdbStatusObject = { ...(status ?? {}) };
  for (const f of countFields) if (s[f] === undefined || s[f] === null) s[f] = 0;
  return s;
}

/** Clients cannot create a PDB with a status; the controller fills it later. */
export function prepareForCreate(obj: KObject): void {
  (obj as PdbObject).status = withCounts(undefined);
}

/** The spec struct is always present in upstream's output, if only as `{}`. */
export function applyDefaults(obj: KObject): void {
  const pdb = obj as PdbObject;
  if (pdb.spec === undefined || pdb.spec === null) pdb.spec = {};
}

/**
 * /status: the spec comes from the stored object. Metadata changes are kept:
 * upstream's PDB status strategy predates the opt-in ResetObjectMetaForStatus.
 */
export function prepareForStatusUpdate(obj: KObject, old: KObject): void {
  const pdb = obj as PdbObject;
  if (old.spec === undefined) delete pdb.spec;
  else pdb.spec = structuredClone((old as PdbObject).spec);
  pdb.status = withCounts(pdb.status);
}
