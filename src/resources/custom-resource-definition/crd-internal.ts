/**
 * A v1 CustomResourceDefinition as upstream validates it: converted to the
 * internal version first, where a schema, subresources, printer columns or
 * selectable fields that every version shares sit once at the top
 * (`spec.validation`, `spec.subresources`...) and the conversion webhook is
 * flattened (`spec.conversion.webhookClientConfig`). That is why a
 * single-version CRD's schema errors read `spec.validation.openAPIV3Schema...`.
 */
import { isPlainObject, KObject } from '../../machinery/object';
import type { JSONSchemaProps } from '../../machinery/structural';

export interface Names {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface Validation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface Subresources {
  status?: Record<string, never> | null;
  scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string | null } | null;
}

export interface Column {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface SelectableField {
  jsonPath?: string;
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string | null;
  port?: number | null;
}

export interface ClientConfig {
  url?: string | null;
  service?: ServiceReference | null;
  caBundle?: string;
}

/** A version as v1 writes it. */
export interface Version {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string | null;
  schema?: Validation | null;
  subresources?: Subresources | null;
  additionalPrinterColumns?: Column[];
  selectableFields?: SelectableField[];
}

export interface SpecV1 {
  group?: string;
  names?: Names;
  scope?: string;
  versions?: Version[];
  conversion?: { strategy?: string; webhook?: { clientConfig?: ClientConfig | null; conversionReviewVersions?: string[] } | null } | null;
  preserveUnknownFields?: boolean;
}

export interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export interface StatusV1 {
  conditions?: Condition[] | null;
  acceptedNames?: Names;
  storedVersions?: string[] | null;
  observedGeneration?: number;
}

/** A CustomResourceDefinition as stored and served (v1). */
export type CRDObject = KObject & { spec?: SpecV1; status?: StatusV1 };

/** The internal form's spec. */
export interface Spec {
  group: string;
  names: Names;
  scope: string;
  version: string;
  versions: Version[];
  validation?: Validation;
  subresources?: Subresources;
  additionalPrinterColumns?: Column[];
  selectableFields?: SelectableField[];
  conversion?: { strategy: string; webhookClientConfig?: ClientConfig; conversionReviewVersions?: string[] };
  preserveUnknownFields: boolean;
}

/** apimachinery's Semantic.DeepEqual on decoded JSON: nil and empty lists or maps are equal. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).every((k) => v[k] === undefined));
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => semanticEqual(a[k], b[k]));
  }
  return a === b;
}

type Shared = 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields';

export function toInternalSpec(spec: SpecV1): Spec {
  const versions = (spec.versions ?? []).map((v) => ({ ...v }));
  const out: Spec = {
    group: spec.group ?? '',
    names: spec.names ?? {},
    scope: spec.scope ?? '',
    version: versions[0]?.name ?? '',
    versions,
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
  const hoist = (field: Shared): unknown => {
    if (versions.length === 0 || !versions.every((v) => semanticEqual(v[field], versions[0][field]))) return undefined;
    const shared = versions[0][field];
    for (const v of versions) delete v[field];
    return shared ?? undefined;
  };
  out.subresources = (hoist('subresources') as Subresources | undefined) ?? undefined;
  out.validation = (hoist('schema') as Validation | undefined) ?? undefined;
  out.additionalPrinterColumns = hoist('additionalPrinterColumns') as Column[] | undefined;
  out.selectableFields = hoist('selectableFields') as SelectableField[] | undefined;
  const c = spec.conversion;
  if (c) {
    out.conversion = { strategy: c.strategy ?? '' };
    if (c.webhook) {
      if (c.webhook.conversionReviewVersions !== undefined) out.conversion.conversionReviewVersions = c.webhook.conversionReviewVersions;
      if (c.webhook.clientConfig) out.conversion.webhookClientConfig = c.webhook.clientConfig;
    }
  }
  return out;
}
