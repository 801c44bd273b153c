/**
 * PDB strategy: a fresh status on create, and the /status writer's view
 * (the spec stays as stored). The always-written spec and status counts come
 * from the fields' declared Go tags (pdb.types.ts).
 */
import type { KObject } from '../../machinery/object';
import type { PdbObject } from './pdb.validation';

/** Clients cannot create a PDB with a status; the controller fills it later. */
export function prepareForCreate(obj: KObject): void {
  (obj as PdbObject).status = {};
}

/**
 * /status: the spec comes from the stored object. Metadata changes are kept:
 * upstream's PDB status strategy predates the opt-in ResetObjectMetaForStatus.
 */
export function prepareForStatusUpdate(obj: KObject, old: KObject): void {
  const pdb = obj as PdbObject;
  if (old.spec === undefined) delete pdb.spec;
  else pdb.spec = structuredClone((old as PdbObject).spec);
}
