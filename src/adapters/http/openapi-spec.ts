/**
 * OpenAPI documents generated from the served definitions and their declared
 * schemas: one v3 document per group-version, and one Swagger 2.0 document.
 * kubectl reads them to find the fieldValidation parameter (server-side
 * validation), the patch types, and for `kubectl explain`.
 */
import { ResourceDefinition, apiVersionOf } from '../../machinery/resource-definition';
import { allDefinitions, kindSchema, kindSchemaName, Schema } from '../../machinery/schema/schema';
import { resourcePaths } from './routes';
import { patchContentTypes } from '../../registry/request';

type Doc = Record<string, unknown>;
type Flavor = 'v2' | 'v3';

const gvk = (def: ResourceDefinition) => [{ group: def.group, version: def.version, kind: def.kind }];

/** Rewrites $refs for the flavor; $ref siblings go through allOf, as upstream's documents do. */
function convert(s: Schema, flavor: Flavor): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' || k.startsWith('x-go-')) continue;
    if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v as Record<string, Schema>).map(([n, c]) => [n, convert(c, flavor)]));
    else if (k === 'items' || (k === 'additionalProperties' && typeof v === 'object')) out[k] = convert(v as Schema, flavor);
    else if (k === 'anyOf') {
      if (flavor === 'v3') out.anyOf = (v as Schema[]).map((c) => convert(c, flavor));
    } else out[k] = v;
  }
  if (s.$ref) {
    const ref = `#/${flavor === 'v3' ? 'components/schemas' : 'definitions'}/${s.$ref.slice(s.$ref.lastIndexOf('/') + 1)}`;
    if (Object.keys(out).length === 0) return { $ref: ref };
    return { ...out, allOf: [{ $ref: ref }] };
  }
  if (flavor === 'v2' && s['x-kubernetes-int-or-string']) {
    out.type = 'string';
    out.format = 'int-or-string';
  }
  return out;
}

/** The schemas reachable from the given kinds' roots, by name (recursive types included once). */
function reachable(roots: ResourceDefinition[]): Record<string, Schema> {
  const defs = allDefinitions();
  const seen = new Map<string, Schema>();
  const visit = (s: Schema | undefined) => {
    if (!s) return;
    if (s.$ref) {
      const name = s.$ref.slice(s.$ref.lastIndexOf('/') + 1);
      if (!seen.has(name) && defs[name]) {
        seen.set(name, defs[name]);
        visit(defs[name]);
      }
    }
    Object.values(s.properties ?? {}).forEach(visit);
    visit(s.items);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
  };
  for (const def of roots) {
    seen.set(kindSchemaName(def), kindSchema(def));
    visit(kindSchema(def));
  }
  return Object.fromEntries(seen);
}

const queryParam = (name: string, type: string, description: string, flavor: Flavor) =>
  flavor === 'v3'
    ? { name, in: 'query', description, schema: { type } }
    : { name, in: 'query', description, type, uniqueItems: true };

function writeParams(flavor: Flavor, patch = false) {
  const p = [
    queryParam('dryRun', 'string', 'When present, modifications are not persisted. Valid value: All.', flavor),
    queryParam('fieldManager', 'string', 'Name of the actor making the change; fewer than 128 printable characters.', flavor),
    queryParam('fieldValidation', 'string', 'How unknown or duplicate fields are handled: Ignore, Warn (default) or Strict.', flavor),
  ];
  if (patch) p.push(queryParam('force', 'boolean', 'Apply only: take ownership of conflicting fields.', flavor));
  return p;
}

function listParams(flavor: Flavor) {
  return [
    ['allowWatchBookmarks', 'boolean'], ['continue', 'string'], ['fieldSelector', 'string'], ['labelSelector', 'string'],
    ['limit', 'integer'], ['resourceVersion', 'string'], ['resourceVersionMatch', 'string'], ['sendInitialEvents', 'boolean'],
    ['timeoutSeconds', 'integer'], ['watch', 'boolean'],
  ].map(([n, t]) => queryParam(n, t, `List/watch option ${n}.`, flavor));
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Upstream's group-version part of operation ids: CoreV1, CoordinationV1, RbacAuthorizationV1, EventsV1... */
function groupVersionId(def: ResourceDefinition): string {
  const group = def.group ? def.group.replace(/\.(svc|k8s)\.io$/, '') : 'core';
  return group.split('.').map(capital).join('') + capital(def.version);
}

/** Upstream's operation ids: listCoordinationV1NamespacedLease, readCoreV1Namespace, patchPolicyV1NamespacedPodDisruptionBudgetStatus... */
function operationId(def: ResourceDefinition, action: string, suffix = ''): string {
  const verb: Record<string, string> = { list: 'list', post: 'create', deletecollection: 'deleteCollection', get: 'read', put: 'replace', patch: 'patch', delete: 'delete' };
  const scope = def.namespaced && suffix !== 'ForAllNamespaces' ? 'Namespaced' : '';
  return `${verb[action]}${groupVersionId(def)}${scope}${def.kind}${suffix}`;
}

/** Schema name of the list kind: per declared root, since two groups may share a kind (Event). */
const listSchemaName = (def: ResourceDefinition) => `${kindSchemaName(def)}List`;

function operation(def: ResourceDefinition, action: string, flavor: Flavor, opts: { body?: string[]; params?: unknown[]; response: string; idSuffix?: string }): Doc {
  const ref = (name: string) => ({ $ref: `#/${flavor === 'v3' ? 'components/schemas' : 'definitions'}/${name}` });
  const op: Doc = {
    operationId: operationId(def, action, opts.idSuffix),
    tags: [def.group || 'core'],
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk(def)[0],
    parameters: opts.params ?? [],
  };
  const responseSchema = opts.response === 'Status' ? { type: 'object' } : ref(opts.response);
  if (flavor === 'v3') {
    if (opts.body) op.requestBody = { content: Object.fromEntries(opts.body.map((t) => [t, { schema: t.includes('patch') ? { type: 'object' } : ref(kindSchemaName(def)) }])), required: true };
    op.responses = { '200': { description: 'OK', content: { 'application/json': { schema: responseSchema }, 'application/yaml': { schema: responseSchema } } } };
  } else {
    if (opts.body) {
      op.consumes = opts.body;
      (op.parameters as unknown[]).unshift({ name: 'body', in: 'body', required: true, schema: opts.body[0].includes('patch') ? { type: 'object' } : ref(kindSchemaName(def)) });
    }
    op.produces = ['application/json', 'application/yaml'];
    op.responses = { '200': { description: 'OK', schema: responseSchema } };
  }
  return op;
}

function toTemplate(path: string): string {
  return path.replace(/:([a-z]+)/g, '{$1}');
}

function pathParams(path: string, flavor: Flavor) {
  return [...path.matchAll(/\{([a-z]+)\}/g)].map((m) =>
    flavor === 'v3'
      ? { name: m[1], in: 'path', required: true, schema: { type: 'string' } }
      : { name: m[1], in: 'path', required: true, type: 'string', uniqueItems: true },
  );
}

function pathsFor(def: ResourceDefinition, flavor: Flavor): Doc {
  const patchTypes = patchContentTypes(def.strategicMergePatch !== false);
  const p = resourcePaths(def);
  const list = listSchemaName(def);
  const bodyTypes = ['application/json', 'application/yaml'];
  const out: Doc = {};
  const collection = toTemplate(p.collection);
  out[collection] = {
    get: operation(def, 'list', flavor, { params: listParams(flavor), response: list }),
    post: operation(def, 'post', flavor, { body: bodyTypes, params: writeParams(flavor), response: kindSchemaName(def) }),
    ...(def.deleteCollection === false ? {} : { delete: operation(def, 'deletecollection', flavor, { params: listParams(flavor), response: 'Status' }) }),
    parameters: pathParams(collection, flavor),
  };
  const item = toTemplate(p.item);
  out[item] = {
    get: operation(def, 'get', flavor, { response: kindSchemaName(def) }),
    put: operation(def, 'put', flavor, { body: bodyTypes, params: writeParams(flavor), response: kindSchemaName(def) }),
    patch: operation(def, 'patch', flavor, { body: patchTypes, params: writeParams(flavor, true), response: kindSchemaName(def) }),
    delete: operation(def, 'delete', flavor, { params: [queryParam('dryRun', 'string', 'Valid value: All.', flavor)], response: 'Status' }),
    parameters: pathParams(item, flavor),
  };
  for (const [sub, s] of Object.entries(def.subresources)) {
    const path = `${item}/${sub}`;
    const entry: Doc = { parameters: pathParams(path, flavor) };
    const idSuffix = sub.charAt(0).toUpperCase() + sub.slice(1);
    if (s.verbs.includes('get')) entry.get = operation(def, 'get', flavor, { response: kindSchemaName(def), idSuffix });
    if (s.verbs.includes('update')) entry.put = operation(def, 'put', flavor, { body: bodyTypes, params: writeParams(flavor), response: kindSchemaName(def), idSuffix });
    if (s.verbs.includes('patch')) entry.patch = operation(def, 'patch', flavor, { body: patchTypes, params: writeParams(flavor, true), response: kindSchemaName(def), idSuffix });
    out[path] = entry;
  }
  if (p.allNamespaces) {
    out[toTemplate(p.allNamespaces)] = { get: operation(def, 'list', flavor, { params: listParams(flavor), response: list, idSuffix: 'ForAllNamespaces' }) };
  }
  return out;
}

function schemasFor(defs: ResourceDefinition[], flavor: Flavor): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, s] of Object.entries(reachable(defs))) out[name] = convert(s, flavor);
  for (const def of defs) {
    out[kindSchemaName(def)]['x-kubernetes-group-version-kind'] = gvk(def);
    const items = flavor === 'v3' ? { $ref: `#/components/schemas/${kindSchemaName(def)}` } : { $ref: `#/definitions/${kindSchemaName(def)}` };
    out[listSchemaName(def)] = {
      type: 'object',
      description: `A list of ${def.kind} objects.`,
      required: ['items'],
      properties: {
        apiVersion: { type: 'string', description: 'Versioned schema of this representation.' },
        kind: { type: 'string', description: 'REST resource this object represents.' },
        metadata: { type: 'object', description: 'Standard list metadata: resourceVersion, continue, remainingItemCount.' },
        items: { type: 'array', items },
      },
      'x-kubernetes-group-version-kind': [{ group: def.group, version: def.version, kind: def.listKind }],
    };
  }
  return out;
}

const info = { title: 'svc.io resource API server', version: 'v1.37.0' };

export function openApiV3(defs: ResourceDefinition[]): Doc {
  return {
    openapi: '3.0.0',
    info,
    paths: Object.assign({}, ...defs.map((d) => pathsFor(d, 'v3'))),
    components: { schemas: schemasFor(defs, 'v3') },
  };
}

export function openApiV2(defs: ResourceDefinition[]): Doc {
  return {
    swagger: '2.0',
    info,
    paths: Object.assign({}, ...defs.map((d) => pathsFor(d, 'v2'))),
    definitions: schemasFor(defs, 'v2'),
  };
}

/** `api/v1` or `apis/<group>/<version>`: the key of a group-version in the v3 index. */
export function groupVersionPath(def: ResourceDefinition): string {
  return def.group ? `apis/${apiVersionOf(def)}` : `api/${def.version}`;
}
