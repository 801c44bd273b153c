/**
 * Workload strategy: fields behind a disabled feature gate are dropped on
 * create and update, unless the stored object already used them (so turning a
 * gate off never silently deletes data).
 */
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { allTemplates, podGroupTemplates, specOf, WorkloadSpecShape } from './workload.shapes';

/** Whether each gated field may be present: its gate is on, or the stored object uses it. */
export interface WorkloadOptions {
  composite: boolean;
  preemptionPolicy: boolean;
  resourceClaims: boolean;
  schedulingConstraints: boolean;
}

function inUse(spec: WorkloadSpecShape | undefined): WorkloadOptions {
  const none = { composite: false, preemptionPolicy: false, resourceClaims: false, schedulingConstraints: false };
  if (!spec) return none;
  return {
    composite: (spec.compositePodGroupTemplates?.length ?? 0) > 0,
    preemptionPolicy: [...allTemplates(spec)].some((t) => t.preemptionPolicy != null),
    resourceClaims: [...podGroupTemplates(spec)].some((t) => (t.resourceClaims?.length ?? 0) > 0),
    schedulingConstraints: [...podGroupTemplates(spec)].some((t) => t.schedulingConstraints != null),
  };
}

export function workloadOptions(ctx: StrategyContext, old?: KObject): WorkloadOptions {
  const used = inUse(old ? specOf(old) : undefined);
  return {
    composite: ctx.gates.enabled('CompositePodGroup') || used.composite,
    preemptionPolicy: ctx.gates.enabled('PodGroupPreemptionPolicy') || used.preemptionPolicy,
    resourceClaims: ctx.gates.enabled('DRAWorkloadResourceClaims') || used.resourceClaims,
    schedulingConstraints: ctx.gates.enabled('TopologyAwareWorkloadScheduling') || used.schedulingConstraints,
  };
}

export function dropDisabledFields(obj: KObject, old: KObject | undefined, ctx: StrategyContext): void {
  const spec = (obj as { spec?: WorkloadSpecShape }).spec;
  if (!spec) return;
  const opts = workloadOptions(ctx, old);
  if (!opts.composite) delete spec.compositePodGroupTemplates;
  for (const t of allTemplates(spec)) if (!opts.preemptionPolicy) delete t.preemptionPolicy;
  for (const t of podGroupTemplates(spec)) {
    if (!opts.resourceClaims) delete t.resourceClaims;
    if (!opts.schedulingConstraints) delete t.schedulingConstraints;
  }
}

export function prepareForCreate(obj: KObject, ctx: StrategyContext): void {
  dropDisabledFields(obj, undefined, ctx);
}

export function prepareForUpdate(obj: KObject, old: KObject, ctx: StrategyContext): void {
  dropDisabledFields(obj, old, ctx);
}
