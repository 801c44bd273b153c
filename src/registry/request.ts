/** What a registry operation needs to know about the request besides the object. */
import type { UserInfo } from '../machinery/resource-definition';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptions {
  user: UserInfo;
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: FieldValidation;
  /** Warnings for the `Warning: 299` response header, collected while the request runs. */
  warnings: string[];
  /** The request's group/version, recorded in managedFields. */
  apiVersion?: string;
  /** Set by server-side apply, which records its own managedFields entry (no Update entry then). */
  appliedManagedFields?: boolean;
  /** Annotations admission adds to the request's audit event (upstream's audit annotations). */
  auditAnnotations?: Record<string, string>;
  /** Which options these are, as admission webhooks are told (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions). */
  kind?: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';
}

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  /** Watch-only. */
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  shardSelector?: string;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** The PATCH content types, in the order upstream lists them (its installer and its 415 message). */
const patchMediaTypes: ReadonlyArray<[mediaType: string, type: PatchType]> = [
  ['application/json-patch+json', 'json'],
  ['application/merge-patch+json', 'merge'],
  ['application/strategic-merge-patch+json', 'strategic'],
  ['application/apply-patch+yaml', 'apply'],
];

/** The content types a kind accepts on PATCH: strategic merge only for kinds whose fields carry its directives. */
export function patchContentTypes(strategic: boolean): string[] {
  return patchMediaTypes.filter(([, t]) => strategic || t !== 'strategic').map(([m]) => m);
}

/**
 * The patch type a Content-Type header names, or undefined (a 415). As upstream, only what follows the first `;` is
 * dropped: the match is exact, so stray spaces or capitals are not accepted.
 */
export function patchTypeOf(contentType: string | undefined, strategic: boolean): PatchType | undefined {
  if (!contentType) return undefined;
  const semi = contentType.indexOf(';');
  const base = semi > 0 ? contentType.slice(0, semi) : contentType;
  const found = patchMediaTypes.find(([m]) => m === base)?.[1];
  return found === 'strategic' && !strategic ? undefined : found;
}

export interface PatchRequest {
  type: PatchType;
  /** The parsed patch document (JSON array for json, object otherwise). */
  body: unknown;
  duplicateFields: string[];
  force?: boolean;
}
