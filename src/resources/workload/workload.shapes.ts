/** Plain-JSON shapes of a Workload and walkers over its template tree. */
import type { KObject } from '../../machinery/object';

export type Marker = Record<string, never>;

export interface TopologyConstraint {
  key?: string;
}
export interface SchedulingConstraints {
  topology?: TopologyConstraint[];
}
export interface DisruptionMode {
  single?: Marker;
  all?: Marker;
}
export interface ResourceClaim {
  name?: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}
export interface PodGroupSchedulingPolicy {
  basic?: Marker;
  gang?: { minCount?: number };
}
export interface CompositeSchedulingPolicy {
  basic?: Marker;
  gang?: { minGroupCount?: number };
}

/** Fields both template kinds carry. */
export interface TemplateCommon {
  name?: string;
  schedulingConstraints?: SchedulingConstraints;
  disruptionMode?: DisruptionMode;
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
}

export interface PodGroupTemplate extends TemplateCommon {
  schedulingPolicy?: PodGroupSchedulingPolicy;
  resourceClaims?: ResourceClaim[];
}

export interface CompositeTemplate extends TemplateCommon {
  schedulingPolicy?: CompositeSchedulingPolicy;
  podGroupTemplates?: PodGroupTemplate[];
  compositePodGroupTemplates?: CompositeTemplate[];
}

export interface ControllerRef {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

export interface WorkloadSpecShape {
  controllerRef?: ControllerRef;
  podGroupTemplates?: PodGroupTemplate[];
  compositePodGroupTemplates?: CompositeTemplate[];
}

export type WorkloadObject = KObject & { spec?: WorkloadSpecShape };

export const specOf = (obj: KObject | undefined): WorkloadSpecShape => ((obj as WorkloadObject | undefined)?.spec ?? {}) as WorkloadSpecShape;

/** Every composite template of the tree, parents before children. */
export function* compositeTemplates(list: CompositeTemplate[] | undefined): Generator<CompositeTemplate> {
  for (const c of list ?? []) {
    yield c;
    yield* compositeTemplates(c.compositePodGroupTemplates);
  }
}

/** Every pod group template, at the top level or under any composite. */
export function* podGroupTemplates(spec: WorkloadSpecShape): Generator<PodGroupTemplate> {
  yield* spec.podGroupTemplates ?? [];
  for (const c of compositeTemplates(spec.compositePodGroupTemplates)) yield* c.podGroupTemplates ?? [];
}

/** Both kinds of template, for fields they share. */
export function* allTemplates(spec: WorkloadSpecShape): Generator<TemplateCommon> {
  yield* podGroupTemplates(spec);
  yield* compositeTemplates(spec.compositePodGroupTemplates);
}
