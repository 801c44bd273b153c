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

export interface PatchRequest {
  type: PatchType;
  /** The parsed patch document (JSON array for json, object otherwise). */
  body: unknown;
  duplicateFields: string[];
  force?: boolean;
}
