/**
 * A mutating webhook's JSONPatch applied as upstream's dispatcher applies it:
 * decoded (an undecodable patch is a call failure), refused on a DELETE
 * (no object to change), applied to the object in the form the webhook was
 * shown, and decoded back into the kind (unknown fields dropped as a typed
 * decode or a custom resource's schema drops them; a value of the wrong type
 * is an internal error, as a failed decode is upstream).
 */
import { deepEqual, isPlainObject, type KObject } from '../../machinery/object';
import { applyJsonPatch } from '../../machinery/patch/json-patch';
import { jsonWord } from '../../machinery/patch/json-values';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { checkAndPrune } from '../../machinery/schema/decode';
import { kindSchema } from '../../machinery/schema/schema';
import { ApiError, errors } from '../../machinery/status';
import type { AdmissionResponse } from './review';
import { CallingWebhookError } from './webhook-errors';

/** The patch's operations; an empty list changes nothing. */
export function decodePatch(webhookName: string, response: AdmissionResponse): unknown[] {
  if (!response.patch?.length) return [];
  let ops: unknown;
  try {
    ops = JSON.parse(response.patch.toString('utf8'));
  } catch (e) {
    throw new CallingWebhookError(webhookName, `received undecodable patch in webhook response: ${(e as Error).message}`);
  }
  if (ops === null) return [];
  if (!Array.isArray(ops)) {
    throw new CallingWebhookError(webhookName, `received undecodable patch in webhook response: json: cannot unmarshal ${jsonWord(ops)} into Go value of type jsonpatch.Patch`);
  }
  return ops;
}

/** `view` (in `def`'s form) with the patch applied and decoded as `def`'s objects are; throws upstream's errors. */
export function applyWebhookPatch(def: ResourceDefinition, view: KObject, ops: unknown[]): { object: KObject; changed: boolean } {
  let patched: unknown;
  try {
    patched = applyJsonPatch(view, ops);
  } catch (e) {
    const detail = e instanceof ApiError ? String(e.cause ?? e.message) : (e as Error).message;
    throw errors.internal(detail);
  }
  if (!isPlainObject(patched) || !isPlainObject(patched.metadata)) throw errors.internal('Object has no metadata');
  const object = patched as KObject;
  if (def.decodeBody) {
    const decoded = def.decodeBody(object);
    if (decoded.error) throw errors.internal(decoded.error);
  } else {
    const report = checkAndPrune(object, kindSchema(def), '', def.kind);
    if (report.typeErrors.length) throw errors.internal(report.typeErrors.join(', '));
  }
  return { object, changed: !deepEqual(view, object) };
}

/** Makes `target` hold what `source` holds (the request's object is changed in place). */
export function replaceContents(target: KObject, source: KObject): void {
  for (const k of Object.keys(target)) if (!(k in source)) delete target[k];
  Object.assign(target, source);
}
