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
import { isPromiseLike, type MaybePromise } from '../machinery/maybe-async';

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

/**
 * A plugin answers at once when it has nothing to wait for (no webhook configured, the namespace known), and with a
 * promise only when it must wait: every write passes every plugin, and an async function would cost each of them a
 * promise and a trip through the microtask queue even when all it did was look at a cache.
 */
export interface AdmissionPlugin {
  /** Upstream's plugin name, as --enable-admission-plugins spells it. */
  readonly name: string;
  admit?(attributes: AdmissionAttributes): MaybePromise<void>;
  validate?(attributes: AdmissionAttributes): MaybePromise<void>;
}

type Phase = 'admit' | 'validate';

/** The chain answers as its plugins do: synchronously while they all do, else with a promise of the rest. */
export class AdmissionChain {
  constructor(readonly plugins: AdmissionPlugin[]) {}

  admit(attributes: AdmissionAttributes): MaybePromise<void> {
    return this.run('admit', attributes, 0);
  }

  validate(attributes: AdmissionAttributes): MaybePromise<void> {
    return this.run('validate', attributes, 0);
  }

  /** Plugins from index `from` on, in order; a plugin that waits holds the rest back until it is done. */
  private run(phase: Phase, attributes: AdmissionAttributes, from: number): MaybePromise<void> {
    for (let i = from; i < this.plugins.length; i++) {
      const plugin = this.plugins[i];
      const answer = plugin[phase]?.(attributes);
      if (isPromiseLike(answer)) return (answer as Promise<void>).then(() => this.run(phase, attributes, i + 1));
    }
  }
}
