/**
 * CRD strategy, as upstream's: defaults of the v1 API (singular, listKind,
 * conversion None, webhook port 443, storedVersions), schemas decoded as Go
 * decodes JSONSchemaProps, a fresh status on create, status kept on spec
 * writes, and the storage version always recorded in status.storedVersions.
 * The /status subresource writes status only (metadata changes are kept:
 * upstream's reset there is a no-op).
 */
import { isPlainObject, KObject } from '../../machinery/object';
import { errors } from '../../machinery/status';
import { decodeSchemaProps, SchemaDecodeError } from '../../machinery/structural';
import type { DeletionRules } from '../../machinery/resource-definition';
import type { CRDObject, SpecV1, Version } from './crd-internal';
import { CRDConditions, setCondition } from './crd-conditions';

type CRD = CRDObject;

const storageVersion = (spec: SpecV1 | undefined) => (spec?.versions ?? []).find((v) => v.storage)?.name;

/** Adds the storage version to storedVersions when it is not there yet. */
function recordStorageVersion(crd: CRD): void {
  const name = storageVersion(crd.spec);
  if (name === undefined) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(name)) stored.push(name);
}

function decodeSchemas(versions: Version[]): void {
  for (const v of versions) {
    const raw = v.schema?.openAPIV3Schema;
    if (raw === undefined || raw === null) continue;
    try {
      v.schema!.openAPIV3Schema = decodeSchemaProps(raw, 'spec.versions.schema.openAPIV3Schema');
    } catch (e) {
      if (!(e instanceof SchemaDecodeError)) throw e;
      throw errors.badRequest(`CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: ${e.message}`);
    }
  }
}

/** SetDefaults_CustomResourceDefinition and the webhook service port default, then the schemas' Go decoding. */
export function applyDefaults(obj: KObject): void {
  const crd = obj as CRD;
  if (isPlainObject(crd.spec)) {
    const spec = crd.spec as SpecV1;
    const names = (spec.names ??= {});
    if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
    spec.conversion ??= { strategy: 'None' };
    const service = spec.conversion.webhook?.clientConfig?.service;
    if (service && (service.port === undefined || service.port === null)) service.port = 443;
    decodeSchemas(spec.versions ?? []);
  }
  if (!crd.status?.storedVersions?.length) recordStorageVersion(crd);
}

/** Clients cannot set status on create; the storage version is recorded as stored. */
export function prepareForCreate(obj: KObject): void {
  const crd = obj as CRD;
  crd.status = {};
  recordStorageVersion(crd);
}

/** Status is the stored one (the registry keeps it); a new storage version is recorded. */
export function prepareForUpdate(obj: KObject): void {
  recordStorageVersion(obj as CRD);
}

/** /status writes: the spec stays as stored. */
export function prepareForStatusUpdate(obj: KObject, old: KObject): void {
  if (old.spec === undefined) delete obj.spec;
  else obj.spec = structuredClone(old.spec);
}

/** The finalizer that holds a CRD until every object of its kinds is gone (upstream's CustomResourceCleanupFinalizer). */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * Upstream's CRD DELETE: the first one only marks the CRD, with the cleanup finalizer and a Terminating condition;
 * the finalizer controller then deletes its objects and lets it go.
 */
export const crdDeletion: DeletionRules = {
  holds: () => false,
  markFirst: true,
  onMark(obj) {
    const finalizers = (obj.metadata.finalizers ??= []);
    if (!finalizers.includes(customResourceCleanupFinalizer)) finalizers.push(customResourceCleanupFinalizer);
    const status = ((obj as CRD).status ??= {});
    const at = new Date(obj.metadata.deletionTimestamp ?? 0);
    setCondition(status, { type: CRDConditions.terminating, status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, at);
  },
};
