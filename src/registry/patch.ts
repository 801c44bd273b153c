/**
 * PATCH: the patch is applied to the current object inside the update loop,
 * so a race re-applies it to the fresh object instead of failing.
 */
import { ApiError, errors } from '../machinery/status';
import { isPlainObject, KObject } from '../machinery/object';
import { goJson } from '../machinery/managed-fields';
import { kindSchema } from '../machinery/schema/schema';
import { ResourceDefinition } from '../machinery/resource-definition';
import { applyJsonPatch } from '../machinery/patch/json-patch';
import { applyMergePatch } from '../machinery/patch/merge-patch';
import { applyStrategicMergePatch } from '../machinery/patch/strategic-merge';
import type { ResourceStore } from './store';
import type { ObjectResult } from './results';
import type { PatchRequest, WriteOptions } from './request';
import { applyServerSide } from './apply';

export type { PatchRequest, PatchType } from './request';

/** Checks a patched object against the kind's schema (the registry's admitBody). */
export type AdmitBody = (def: ResourceDefinition, body: { object: unknown; duplicateFields: string[] }, validation: WriteOptions['fieldValidation'], warnings: string[]) => KObject;

export async function applyPatch(
  admitBody: AdmitBody,
  store: ResourceStore,
  namespace: string | undefined,
  name: string,
  req: PatchRequest,
  opts: WriteOptions,
  subresource?: string,
): Promise<ObjectResult> {
  const def = store.def;
  const schema = kindSchema(def);
  const isApply = req.type === 'apply';
  return store.guaranteedUpdate(
    namespace,
    name,
    opts,
    subresource,
    false,
    async (old, copy) => {
      // Apply's merge shares subtrees of the live object with its result, so it works on a copy.
      if (isApply) return applyServerSide(def, old && copy(), req, opts, namespace, name, store.now(), subresource);
      if (!old) throw errors.notFound(def, name);
      // The patch applies to the object as a client would have seen it. These patches never change their inputs and
      // copy what they change, so the stored object is decoded once for them, not copied again.
      let patched: unknown;
      if (req.type === 'json') patched = applyJsonPatch(old, req.body);
      else if (req.type === 'merge') patched = applyMergePatch(old, req.body);
      else patched = applyStrategicMergePatch(old, req.body as object, schema);
      const warnings: string[] = [];
      const obj = admitPatched(admitBody, def, patched, req, opts, warnings);
      for (const w of warnings) opts.warnings.push(w); // no spread: a patch may have a great many duplicate keys
      if (obj.metadata.name !== name) {
        throw errors.badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`);
      }
      if (def.namespaced && obj.metadata.namespace !== namespace) {
        throw errors.badRequest(`the namespace of the provided object does not match the namespace sent on the request`);
      }
      return obj;
    },
    isApply && !subresource,
  );
}

/**
 * Unknown fields of the patched object and duplicate keys of the patch, per
 * fieldValidation (apimachinery.md §6): Strict rejects with upstream's 422 on
 * the `patch` field, Warn adds warnings, Ignore drops them silently. A patched
 * object of the wrong shape is the same 422 whatever the directive.
 */
function admitPatched(admitBody: AdmitBody, def: ResourceDefinition, patched: unknown, req: PatchRequest, opts: WriteOptions, warnings: string[]): KObject {
  // Upstream shows the patched object (JSON and merge patches) or the patch map (strategic merge) as the bad value.
  const badValue = req.type === 'strategic' ? goMapString(req.body) : goJson(patched);
  const invalid = (detail: string) => errors.invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', badValue, detail }]);
  const unknown: string[] = [];
  let obj: KObject;
  try {
    obj = admitBody(def, { object: patched, duplicateFields: [] }, opts.fieldValidation === 'Ignore' ? 'Ignore' : 'Warn', unknown);
  } catch (e) {
    if (e instanceof ApiError && e.code === 400) throw invalid(e.message);
    throw e;
  }
  if (opts.fieldValidation === 'Ignore') return obj;
  const prefix = req.type === 'json' ? 'json patch ' : '';
  const problems = [...req.duplicateFields.map((f) => `${prefix}duplicate field "${f}"`), ...unknown];
  if (problems.length && opts.fieldValidation === 'Strict') throw invalid(`strict decoding error: ${problems.join(', ')}`);
  for (const p of problems) warnings.push(p);
  return obj;
}

/** Go's %+v of a decoded JSON map: `map[data:map[a:b] list:[1 2]]`, keys sorted. */
function goMapString(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goMapString).join(' ')}]`;
  if (isPlainObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goMapString(v[k])}`).join(' ')}]`;
  return String(v);
}
