/**
 * PATCH: the patch is applied to the current object inside the update loop,
 * so a race re-applies it to the fresh object instead of failing.
 */
import { errors } from '../machinery/status';
import { KObject } from '../machinery/object';
import { schemaOf } from '../machinery/schema/schema';
import { ResourceDefinition } from '../machinery/resource-definition';
import { applyJsonPatch } from '../machinery/patch/json-patch';
import { applyMergePatch } from '../machinery/patch/merge-patch';
import { applyStrategicMergePatch } from '../machinery/patch/strategic-merge';
import type { ResourceStore, UpdateResult } from './store';
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
): Promise<UpdateResult> {
  const def = store.def;
  const schema = schemaOf(def.schemaRoot);
  const isApply = req.type === 'apply';
  return store.guaranteedUpdate(
    namespace,
    name,
    opts,
    subresource,
    false,
    async (old) => {
      if (isApply) return applyServerSide(def, old, req, opts, namespace, name, store.now(), subresource);
      if (!old) throw errors.notFound(def, name);
      const current = stripForPatch(old);
      let patched: unknown;
      if (req.type === 'json') patched = applyJsonPatch(current, req.body);
      else if (req.type === 'merge') patched = applyMergePatch(current, req.body);
      else patched = applyStrategicMergePatch(current, req.body as object, schema);
      const warnings: string[] = [];
      const obj = admitPatched(admitBody, def, patched, req, opts, warnings);
      opts.warnings.push(...warnings);
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

/** The object as a client would have seen it: the patch applies to that JSON. */
function stripForPatch(old: KObject): KObject {
  return structuredClone(old);
}

/** Unknown fields in a patched object: Strict rejects with upstream's patch-flavoured 422. */
function admitPatched(admitBody: AdmitBody, def: ResourceDefinition, patched: unknown, req: PatchRequest, opts: WriteOptions, warnings: string[]): KObject {
  try {
    return admitBody(def, { object: patched, duplicateFields: req.duplicateFields }, opts.fieldValidation, warnings);
  } catch (e) {
    const msg = (e as Error).message;
    const marker = 'strict decoding error: ';
    const at = msg.indexOf(marker);
    if (at >= 0) {
      throw errors.invalid({ group: '', kind: '' }, '', [
        { type: 'FieldValueInvalid', field: 'patch', badValue: JSON.stringify(req.body), detail: msg.slice(at) },
      ]);
    }
    throw e;
  }
}
