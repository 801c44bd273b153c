/**
 * JSON Patch (RFC 6902) as upstream applies it: decode problems are 400,
 * more than 10000 operations 413, and any operation that fails 422 with the
 * generic "rejected our request" text (the library detail is dropped).
 */
import { applyOperation, getValueByPointer, Operation } from 'fast-json-patch';
import { deepCopy } from '../object';
import { goJson } from '../managed-fields/go-values';
import { errors } from '../status';
import { JsonMap, decodeBody, has, isPlainObject, jsonWord } from './json-values';
import { unprocessable } from './patch-errors';

export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * What `copy` operations may add up to, in bytes of the JSON they copy (upstream's JSONPatchMaxCopyBytes, its 3 MiB
 * request body limit): each copy may copy what earlier ones built, so a few dozen operations of a small patch would
 * otherwise double the object until the server runs out of memory.
 */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

const RFC_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

export function applyJsonPatch(doc: unknown, patchBody: unknown): unknown {
  const ops = decodeOperations(decodeBody(patchBody));
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw errors.requestEntityTooLarge(
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
    );
  }
  // Copies of both: the library mutates the document and inserts op values by reference (and the registry passes the
  // stored object itself).
  let current = deepCopy(doc);
  const patch = deepCopy(ops);
  let copied = 0;
  patch.forEach((op, i) => {
    if (op === null || !RFC_OPS.has(String(op.op))) throw unprocessable(`Unexpected kind: ${String(op?.op ?? 'unknown')}`);
    if (nullTestOnAbsentKey(current, op)) return;
    if (op.op === 'copy') {
      copied += copySize(current, op.from);
      if (copied > MAX_JSON_PATCH_COPY_BYTES) {
        throw unprocessable(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`);
      }
    }
    try {
      current = applyOperation(current, op as unknown as Operation, true, true, true, i).newDocument;
    } catch (e) {
      throw unprocessable((e as Error).message);
    }
  });
  return current;
}

/** Shapes encoding/json would refuse when decoding into upstream's []Operation. */
function decodeOperations(body: unknown): (JsonMap | null)[] {
  if (body === null || body === undefined) return []; // JSON null decodes to an empty patch
  if (!Array.isArray(body)) throw errors.badRequest(`json: cannot unmarshal ${jsonWord(body)} into Go value of type jsonpatch.Patch`);
  for (const op of body) {
    if (op !== null && !isPlainObject(op)) {
      throw errors.badRequest(`json: cannot unmarshal ${jsonWord(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  return body as (JsonMap | null)[];
}

/**
 * Upstream (json-patch v4) lets `test` with a null or missing value pass when
 * the key is absent from an existing object; fast-json-patch would fail it.
 */
function nullTestOnAbsentKey(doc: unknown, op: JsonMap): boolean {
  if (op.op !== 'test' || (op.value !== null && op.value !== undefined)) return false;
  if (typeof op.path !== 'string' || !op.path.startsWith('/')) return false;
  const tokens = op.path.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = /^\d+$/.test(t) ? node[Number(t)] : undefined;
    else if (isPlainObject(node) && has(node, t)) node = node[t];
    else return false;
  }
  const last = tokens[tokens.length - 1];
  return isPlainObject(node) && (!has(node, last) || node[last] === null);
}

/** The size of what a copy from `from` adds: its JSON, as Go writes it (0 when there is nothing there to copy). */
function copySize(doc: unknown, from: unknown): number {
  if (typeof from !== 'string' || (from !== '' && !from.startsWith('/'))) return 0;
  let value: unknown;
  try {
    value = getValueByPointer(doc, from);
  } catch {
    return 0; // the operation itself fails, as it would have
  }
  return value === undefined ? 0 : Buffer.byteLength(goJson(value));
}
