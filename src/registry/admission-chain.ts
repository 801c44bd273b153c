/**
 * Admission: plugins that see every write before it is persisted and may
 * reject it (by throwing a Status error) or act on it, as upstream's
 * admission chain. The registry only runs them; which plugins exist and in
 * which order is decided by the composition root, so no kind is named here.
 *
 *  - admit (mutating phase): before the kind's strategy and validation;
 *  - validate (validating phase): after validation, just before the write.
 */
import type { KObject } from '../machinery/object';
import type { ResourceDefinition, UserInfo } from '../machinery/resource-definition';
import type { WriteOptions } from './request';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  definition: ResourceDefinition;
  /** The request's namespace (undefined for cluster-scoped kinds). */
  namespace: string | undefined;
  /** The object's name; empty on a create that only has generateName. */
  name: string;
  subresource?: string;
  /** The new object (CREATE, UPDATE). */
  object?: KObject;
  /** The stored object (UPDATE, DELETE). */
  oldObject?: KObject;
  user: UserInfo;
  dryRun: boolean;
  /**
   * The request's options (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions): plugins add to its warnings
   * (the `Warning` header) and audit annotations, and show it to webhooks.
   */
  options: WriteOptions;
}

export interface AdmissionPlugin {
  /** Upstream's plugin name, as --enable-admission-plugins spells it. */
  readonly name: string;
  admit?(attributes: AdmissionAttributes): Promise<void>;
  validate?(attributes: AdmissionAttributes): Promise<void>;
}

export class AdmissionChain {
  constructor(readonly plugins: AdmissionPlugin[]) {}

  async admit(attributes: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.admit) await p.admit(attributes);
  }

  async validate(attributes: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.validate) await p.validate(attributes);
  }
}
