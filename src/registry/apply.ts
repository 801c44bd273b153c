/**
 * Server-side apply (`application/apply-patch+yaml`): the configuration is
 * checked against the kind's schema, merged into the live object (or an
 * empty one, which creates it), and its manager's `Apply` entry is replaced
 * by the fields it applied. Conflicts with other managers are a 409 unless
 * forced. The result then goes through the normal update (or create) path.
 */
import {
  applyOwnership,
  ConflictError,
  conflictCauses,
  conflictMessage,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  Managed,
  managerIdentifier,
  stripUntracked,
  validateConfig,
  validationMessage,
} from '../machinery/managed-fields';
import { isPlainObject, KObject } from '../machinery/object';
import { apiVersionOf, ResourceDefinition } from '../machinery/resource-definition';
import { kindSchema } from '../machinery/schema/schema';
import { checkTypes } from '../machinery/schema/decode';
import { errors } from '../machinery/status';
import { timestamp } from './context';
import { lastAppliedAnnotation, allowedByLastApplied, rewriteLastApplied } from './last-applied';
import { setManagedFields, updaterContext, withoutManagedFields } from './managed-fields';
import type { PatchRequest, WriteOptions } from './request';

type Config = Record<string, unknown> & { metadata?: Record<string, unknown> };

export async function applyServerSide(
  def: ResourceDefinition,
  live: KObject | undefined,
  req: PatchRequest,
  opts: WriteOptions,
  namespace: string | undefined,
  name: string,
  now: Date,
  subresource?: string,
): Promise<KObject> {
  opts.appliedManagedFields = true; // this request's entry is the Apply entry computed here
  // The request's configuration stays as it came (a retry of the update applies it again): the merge works on a copy.
  const original = decodeConfig(req.body);
  const config = structuredClone(original);
  checkConfig(def, config, opts, name);
  const meta = config.metadata ?? {};
  if (!live && typeof meta.uid === 'string' && meta.uid) {
    throw errors.conflict({ group: def.group, plural: def.plural }, name, `uid mismatch: the provided object specified uid ${meta.uid}, and no existing object was found`);
  }
  dropResetFields(def, config, subresource);
  // A run may leave parts of its configuration in its result: a second run (forced, after conflicts) gets a new copy.
  const copyAgain = (): Config => {
    const again = structuredClone(original);
    validateConfig(again, kindSchema(def), false); // drops the undeclared fields, as checkConfig did
    dropResetFields(def, again, subresource);
    return again;
  };

  const ctx = updaterContext(def, subresource);
  const version = opts.apiVersion ?? apiVersionOf(def);
  const manager = opts.fieldManager || 'unknown';
  const id = managerIdentifier({ manager, operation: 'Apply', subresource });
  // `live` is this attempt's own decoding of the stored object: the result may share its parts.
  const base = live ? withoutManagedFields(live) : ({ metadata: {} } as KObject);
  const run = (force: boolean, cfg: Config): { managed: Managed; object: Record<string, unknown>; noop: boolean } => {
    const managed = live ? storedManaged(live) : emptyManaged();
    const out = applyOwnership(base, cfg, version, managed.sets, id, force, ctx);
    return { managed, ...out };
  };

  let result;
  try {
    result = run(!!req.force, config);
  } catch (e) {
    if (!(e instanceof ConflictError)) throw e;
    // kubectl moving from client-side to server-side apply may take over what its last-applied annotation lists.
    const allowed = manager === 'kubectl' && live ? allowedByLastApplied(def, live) : undefined;
    const remaining = allowed ? e.conflicts.filter((c) => !allowed.has(c.path)) : e.conflicts;
    if (remaining.length) throw errors.applyConflict(conflictMessage(remaining), conflictCauses(remaining));
    result = run(true, copyAgain());
  }

  const { managed } = result;
  const own = managed.sets.get(id);
  if (own) {
    const set = stripUntracked(own.set);
    if (set.empty()) managed.sets.delete(id);
    else managed.sets.set(id, { ...own, set });
  }
  if (!result.noop) managed.times.set(id, timestamp(now));
  const obj = (result.noop ? base : dropNulls(result.object)) as KObject;
  if (!isPlainObject(obj.metadata)) obj.metadata = {};
  if (manager === 'kubectl' && obj.metadata.annotations?.[lastAppliedAnnotation]) rewriteLastApplied(obj, original);
  setManagedFields(obj, encodeManagedFields(managed));

  checkName(def, obj, namespace, name);
  strictDuplicates(req, opts);
  return obj;
}

function decodeConfig(body: unknown): Config {
  if (body === null || body === undefined) return {};
  if (!isPlainObject(body)) {
    const got = Array.isArray(body) ? 'array' : typeof body;
    throw errors.badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${got} into Go value of type map[string]interface {}`);
  }
  return body as Config;
}

/** `<group>/<version>, Kind=<kind>` as Go prints a GroupVersionKind parsed from the body. */
function gvkOf(config: Config): string {
  const av = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  const kind = typeof config.kind === 'string' ? config.kind : '';
  const parts = av.split('/');
  if (parts.length > 2) return '/, Kind='; // an unparsable apiVersion leaves the whole kind empty
  const [group, version] = parts.length === 1 ? ['', parts[0]] : parts;
  return `${group}/${version}, Kind=${kind}`;
}

/** Type meta, managedFields and the schema, in upstream's order and words. */
function checkConfig(def: ResourceDefinition, config: Config, opts: WriteOptions, name: string): void {
  const gvk = gvkOf(config);
  if (gvk !== `${def.group}/${def.version}, Kind=${def.kind}`) throw errors.badRequest(`invalid object type: ${gvk}`);
  if (config.metadata !== undefined && config.metadata !== null && !isPlainObject(config.metadata)) {
    throw errors.badRequest(`error decoding YAML: metadata must be an object`);
  }
  if (config.metadata?.managedFields !== undefined && config.metadata.managedFields !== null) {
    throw errors.badRequest('metadata.managedFields must be nil');
  }
  const report = validateConfig(config, kindSchema(def), opts.fieldValidation === 'Strict');
  if (report.errors.length) {
    const meta = config.metadata ?? {};
    const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
    const n = typeof meta.name === 'string' ? meta.name : name;
    throw errors.badRequest(`failed to create typed patch object (${ns}/${n}; ${gvk}): ${validationMessage(report.errors)}`);
  }
  if (opts.fieldValidation === 'Warn') for (const f of report.unknownFields) opts.warnings.push(`unknown field "${f}"`);
  // Numbers must also fit their integer field's Go type (int32, int64), as decoding into the object checks.
  const typed = checkTypes(config, kindSchema(def), '', def.kind);
  if (typed.typeErrors.length) {
    throw errors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${typed.typeErrors.join(', ')}`);
  }
}

const identityMeta = ['name', 'namespace', 'uid', 'resourceVersion'];
const userMeta = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** Fields this endpoint may not set are left out of the configuration (and so neither merged nor owned). */
function dropResetFields(def: ResourceDefinition, config: Config, subresource: string | undefined): void {
  if (!subresource) {
    if (def.subresources.status) delete config.status;
    return;
  }
  const meta = config.metadata ?? {};
  const kept = def.subresources[subresource].resetObjectMeta ? identityMeta : [...identityMeta, ...userMeta];
  for (const k of Object.keys(config)) if (!['apiVersion', 'kind', 'metadata', 'status'].includes(k)) delete config[k];
  config.metadata = Object.fromEntries(Object.entries(meta).filter(([k]) => kept.includes(k)));
}

function storedManaged(live: KObject): Managed {
  try {
    return decodeManagedFields(live.metadata.managedFields);
  } catch (e) {
    throw errors.untyped(`failed to decode managed fields: ${(e as Error).message}`);
  }
}

/** Null fields of the merged object are absent in the stored one (as Go's omitempty drops them). */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== null).map(dropNulls);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = dropNulls(x);
  return out;
}

function checkName(def: ResourceDefinition, obj: KObject, namespace: string | undefined, name: string): void {
  const objName = obj.metadata.name ?? '';
  if (objName !== name) throw errors.badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  const objNs = obj.metadata.namespace;
  if (def.namespaced && namespace && objNs && objNs !== namespace) {
    throw errors.badRequest(`the namespace of the object (${objNs}) does not match the namespace on the request (${namespace})`);
  }
}

/** Duplicate keys in the body, checked after the apply as upstream does: 400 under Strict, warnings under Warn. */
function strictDuplicates(req: PatchRequest, opts: WriteOptions): void {
  if (!req.duplicateFields.length || opts.fieldValidation === 'Ignore') return;
  const text = ['error converting YAML to JSON: yaml: unmarshal errors:', ...req.duplicateFields.map((d) => `  ${d}`)].join('\n');
  if (opts.fieldValidation === 'Strict') throw errors.badRequest(`error strict decoding YAML: ${text}`);
  for (const line of text.split('\n')) opts.warnings.push(line); // no spread: there may be a great many
}
