/**
 * What the generic registry knows about a kind: names, scope, strategy and
 * per-kind data. Each folder under resources/ exports one of these; the
 * registry, routes, discovery and OpenAPI are all driven from them.
 */
import type { ClockPort } from '../ports/clock.port';
import type { CryptoPort } from '../ports/crypto.port';
import type { FieldError } from './field-errors';
import type { KObject } from './object';
import type { FeatureGates } from './feature-gates';
import type { AuthorizerPort } from '../ports/authorizer.port';
import type { Schema } from './schema/schema';

export type { UserInfo } from './user-info';
import type { UserInfo } from './user-info';

/** Everything a strategy may consult besides the objects themselves. */
export interface StrategyContext {
  gates: FeatureGates;
  clock: ClockPort;
  crypto: CryptoPort;
  user: UserInfo;
  /** Answers permission questions of admission checks (e.g. `approve` on a signer). */
  authorizer: AuthorizerPort;
  /** The request's warnings (the `Warning` header): validation may add some (CEL rules ratcheted on unchanged values). */
  warnings?: string[];
}

/**
 * A kind's validating admission, run after validation on create and update
 * (and on subresource writes); throws a Forbidden ApiError to refuse.
 */
export type AdmissionCheck = (
  op: 'create' | 'update',
  obj: KObject,
  old: KObject | undefined,
  subresource: string | undefined,
  ctx: StrategyContext,
) => void | Promise<void>;

type Errors = FieldError[] | Promise<FieldError[]>;

export interface Strategy {
  /** Clear fields the client may not set and fill defaults (after system metadata is set). */
  prepareForCreate?(obj: KObject, ctx: StrategyContext): void;
  /** Carry over or reset fields on update, e.g. keep status on main-resource writes. */
  prepareForUpdate?(obj: KObject, old: KObject, ctx: StrategyContext): void;
  /** Defaults applied on every decode of a request body (create, update, patch result). */
  applyDefaults?(obj: KObject, ctx: StrategyContext): void;
  validate(obj: KObject, ctx: StrategyContext): Errors;
  validateUpdate(obj: KObject, old: KObject, ctx: StrategyContext): Errors;
  /** Reshape stored values into canonical form (e.g. quantities) before persisting. */
  canonicalize?(obj: KObject): void;
  /** Kind-level finalizers on top of metadata.finalizers (see DeletionRules). */
  deletion?: DeletionRules;
}

/**
 * Deletion held by the kind itself, as upstream's Namespace REST Delete and
 * ShouldDeleteNamespaceDuringUpdate do with spec.finalizers: while
 * `holds(obj)`, an object whose deletion was requested is kept (DELETE
 * answers with it unchanged, and a write that empties metadata.finalizers
 * does not remove it).
 */
export interface DeletionRules {
  holds(obj: KObject): boolean;
  /** The first DELETE only marks the object (deletionTimestamp, no grace period), whatever holds it. */
  markFirst?: boolean;
  /** Changes made to the object when the first DELETE marks it (e.g. status.phase = Terminating). */
  onMark?(obj: KObject): void;
}

/**
 * A kind whose objects live in another kind's storage, converted on the way
 * in and out (upstream stores events.k8s.io/v1 Events as core v1 Events).
 */
export interface StoredAs {
  group: string;
  plural: string;
  /** This kind's object in the stored kind's form. */
  toStorage(obj: KObject): KObject;
  /** A stored object in this kind's form. */
  fromStorage(obj: KObject): KObject;
  /**
   * This kind's objects are written in their own form (toStorage changes nothing: the storage version of a custom
   * resource), so what a write stored is also its answer.
   */
  sameForm?: boolean;
  /**
   * Conversion that takes a call (a custom resource's conversion webhook): then toStorage and fromStorage leave
   * objects in the stored form, and the registry converts with this at its edges (reads, and each write's
   * old and new object). Kinds without it never wait on a conversion.
   */
  converter?: AsyncConverter;
}

/** Converts objects between a kind's version and its stored form, all of them in one call. */
export interface AsyncConverter {
  /** Stored objects in this kind's version (pruned and defaulted as a read of it is). */
  fromStorage(objs: KObject[]): Promise<KObject[]>;
  /** This kind's objects in the stored version. */
  toStorage(objs: KObject[]): Promise<KObject[]>;
}

/** A subresource whose writes replace part of the object (status, approval). */
export interface SubresourceStrategy {
  /** Copy into `obj` everything this subresource may not change from `old`. */
  prepareForUpdate(obj: KObject, old: KObject, ctx: StrategyContext): void;
  validateUpdate(obj: KObject, old: KObject, ctx: StrategyContext): Errors;
  /**
   * Upstream's ResetObjectMetaForStatus, which only newer kinds opt into:
   * labels, annotations, finalizers and ownerReferences sent to the
   * subresource are replaced by the stored ones. Without it (older kinds such
   * as CSR and PDB) metadata changes made through the subresource are kept.
   */
  resetObjectMeta?: boolean;
  /** Verbs served on the subresource. */
  verbs: Array<'get' | 'update' | 'patch'>;
  /** The subresource reads and writes a view of the object in another kind (a custom resource's /scale). */
  view?: SubresourceView;
}

/**
 * A view of an object in another kind (upstream's autoscaling/v1 Scale of a custom resource): read from the
 * object, and written back into it. Writes through it go through the kind's own update rules.
 */
export interface SubresourceView {
  group: string;
  version: string;
  kind: string;
  toView(obj: KObject): KObject;
  /** Writes the view's changes into `obj`, a copy of the stored object. */
  fromView(view: KObject, obj: KObject): void;
  validate(view: KObject): FieldError[];
}

export interface ColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description: string;
  priority: number;
}

export interface TableConvention {
  columns: ColumnDefinition[];
  /** Cells for one object, in column order; `now` for ages. */
  cells(obj: KObject, now: Date): unknown[];
}

export interface ResourceDefinition {
  group: string;
  /**
   * Upstream's name for the group (`rbac.authorization.k8s.io`), under which the same objects are
   * also served at the same paths, for typed clients that hard-code it (kubectl's create
   * rolebinding). Not listed in discovery; objects read there carry that group's apiVersion.
   */
  upstreamGroup?: string;
  /**
   * Discovery lists the kind under upstreamGroup too: tools that map a manifest's apiVersion through discovery
   * (kubectl apply of `apiextensions.k8s.io/v1` CRDs) find it there.
   */
  discoverUpstreamGroup?: boolean;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  namespaced: boolean;
  /** Served only while this gate is on. */
  featureGate?: string;
  /** Root class of the declared types (class-validator/class-transformer); kinds defined at run time give `schema` instead. */
  schemaRoot?: Function;
  /** The kind's schema tree, for kinds without declared classes (custom resources): see kindSchema(). */
  schema?: Schema;
  /** The name its schema is published under in OpenAPI (default: the root class's name). */
  schemaName?: string;
  /**
   * Decodes a request body in place instead of the declared-type check (custom resources: structural pruning and
   * coercion); returns the unknown fields it dropped, and a decoding error (a 400) if any.
   */
  decodeBody?(obj: KObject): { unknownFields: string[]; error?: string };
  /** Each request to this kind's version gets this `Warning` (a deprecated CRD version). */
  deprecationWarning?: string;
  strategy: Strategy;
  subresources: Record<string, SubresourceStrategy>;
  /** Field selectors beyond metadata.name/metadata.namespace: field -> value getter. */
  fieldSelectors: Record<string, (obj: KObject) => string | undefined>;
  table?: TableConvention;
  /** Whether generation is set on create and bumped on spec change. */
  usesGeneration: boolean;
  /** The part of the object whose change bumps generation (e.g. 'spec'). */
  generationFields?: string[];
  /** Instead of generationFields: a change to any top-level field but these bumps generation (custom resources). */
  generationIgnores?: string[];
  allowCreateOnUpdate: boolean;
  allowUnconditionalUpdate: boolean;
  /** DELETE answers with the deleted object instead of a Status. */
  returnDeletedObject?: boolean;
  /** Validating admission of this kind (permission checks the spec puts on writes). */
  admit?: AdmissionCheck;
  /** Validates metadata.name; returns messages (empty when valid). */
  validateName(name: string, prefix: boolean): string[];
  /** Kept in another kind's storage (keys and stored form are that kind's). */
  storedAs?: StoredAs;
  /** PATCH takes strategic merge patches (default true: built-in kinds carry its directives; custom resources do not). */
  strategicMergePatch?: boolean;
  /** DELETE on the collection is served (default true; upstream serves none for namespaces). */
  deleteCollection?: boolean;
  /** The 400 message for a field selector on an unknown field, where the kind has its own (upstream's label conversion). */
  unknownFieldSelectorMessage?(field: string): string;
}

export function apiVersionOf(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}
