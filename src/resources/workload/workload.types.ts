/** Workload (scheduling.svc.io/v1beta1), declared for schema checks, patches, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, Int32, JSONSchema, ListMap, MergeByKey, OmitEmpty } from '../../machinery/schema/declare';

/** A marker object without fields (`basic: {}`, `single: {}`); any key inside is unknown. */
const Marker = (description: string) => JSONSchema({ type: 'object', properties: {}, description } as never);

export class WorkloadControllerRef {
  @OmitEmpty() @IsOptional() @IsString() @Describe('API group of the referenced object; empty for the core group.') apiGroup?: string;
  @EmitEmpty() @IsString() @Describe('Kind of the referenced object.') kind!: string;
  @EmitEmpty() @IsString() @Describe('Name of the referenced object.') name!: string;
}

export class WorkloadGangPolicy {
  @EmitEmpty() @Int32() @Describe('Pods that must be schedulable together before any is admitted; positive; may change.') minCount!: number;
}

export class WorkloadPodGroupSchedulingPolicy {
  @OmitEmpty('pointer') @IsOptional() @Marker('Standard scheduling for each pod. Cannot be changed after creation.') basic?: Record<string, never>;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => WorkloadGangPolicy) @Describe('All-or-nothing scheduling of the group.')
  gang?: WorkloadGangPolicy;
}

export class WorkloadTopologyConstraint {
  @EmitEmpty() @IsString() @Describe('Node label key naming the topology domain all pods of a group share.') key!: string;
}

export class WorkloadSchedulingConstraints {
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => WorkloadTopologyConstraint) @Atomic()
  @Describe('Topology constraints; at most one.')
  topology?: WorkloadTopologyConstraint[];
}

export class WorkloadDisruptionMode {
  @OmitEmpty('pointer') @IsOptional() @Marker('Children may be disrupted independently.') single?: Record<string, never>;
  @OmitEmpty('pointer') @IsOptional() @Marker('Children may only be disrupted together.') all?: Record<string, never>;
}

export class WorkloadPodGroupResourceClaim {
  @EmitEmpty() @IsString() @Describe('Name of the claim within the group; a DNS label.') name!: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('An existing ResourceClaim in the namespace.') resourceClaimName?: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('A ResourceClaimTemplate to create the group claim from.') resourceClaimTemplateName?: string;
}

export class WorkloadPodGroupTemplate {
  @EmitEmpty() @IsString() @Describe('Unique within the Workload; a DNS label. Immutable.') name!: string;
  @EmitEmpty() @ValidateNested() @Type(() => WorkloadPodGroupSchedulingPolicy) @Describe('Exactly one of basic or gang.')
  schedulingPolicy!: WorkloadPodGroupSchedulingPolicy;
  // No omitempty upstream (unlike the composite template's): an unset value is written as null.
  @EmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => WorkloadSchedulingConstraints)
  @Describe('Optional constraints such as topology (TopologyAwareWorkloadScheduling). Immutable.')
  schedulingConstraints?: WorkloadSchedulingConstraints;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => WorkloadPodGroupResourceClaim) @MergeByKey('name', 'retainKeys')
  @Describe('ResourceClaims the pods of a group may share (DRAWorkloadResourceClaims, beta). Immutable.')
  resourceClaims?: WorkloadPodGroupResourceClaim[];
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => WorkloadDisruptionMode) @Describe('Exactly one of single or all. Immutable.')
  disruptionMode?: WorkloadDisruptionMode;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Priority class of groups made from this template. Immutable.') priorityClassName?: string;
  @OmitEmpty('pointer') @IsOptional() @Int32() @Describe('Priority of groups made from this template; higher wins. Immutable.') priority?: number;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('Never or PreemptLowerPriority (PodGroupPreemptionPolicy). Immutable.') preemptionPolicy?: string;
}

export class WorkloadCompositeGangPolicy {
  @EmitEmpty() @Int32() @Describe('Child groups that must be schedulable together; positive.') minGroupCount!: number;
}

export class WorkloadCompositeSchedulingPolicy {
  @OmitEmpty('pointer') @IsOptional() @Marker('Child groups are scheduled independently. Immutable.') basic?: Record<string, never>;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => WorkloadCompositeGangPolicy) @Describe('All-or-nothing scheduling of child groups.')
  gang?: WorkloadCompositeGangPolicy;
}

export class WorkloadCompositePodGroupTemplate {
  @EmitEmpty() @IsString() @Describe('Unique within the Workload; a DNS label.') name!: string;
  @EmitEmpty() @ValidateNested() @Type(() => WorkloadCompositeSchedulingPolicy) @Describe('Exactly one of basic or gang.')
  schedulingPolicy!: WorkloadCompositeSchedulingPolicy;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => WorkloadSchedulingConstraints) @Describe('Optional constraints. Immutable.')
  schedulingConstraints?: WorkloadSchedulingConstraints;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => WorkloadDisruptionMode) @Describe('Exactly one of single or all. Immutable.')
  disruptionMode?: WorkloadDisruptionMode;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Priority class of composite groups made from this template. Immutable.') priorityClassName?: string;
  @OmitEmpty('pointer') @IsOptional() @Int32() @Describe('Priority of composite groups made from this template. Immutable.') priority?: number;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('Never or PreemptLowerPriority (PodGroupPreemptionPolicy). Immutable.') preemptionPolicy?: string;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => WorkloadPodGroupTemplate) @ListMap('name')
  @Describe('Templates of child pod groups; at most 8.')
  podGroupTemplates?: WorkloadPodGroupTemplate[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => WorkloadCompositePodGroupTemplate) @ListMap('name')
  @Describe('Templates of child composite groups; at most 8.')
  compositePodGroupTemplates?: WorkloadCompositePodGroupTemplate[];
}

export class WorkloadSpec {
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => WorkloadControllerRef) @Describe('The controlling object (e.g. a Job), for tools. Immutable.')
  controllerRef?: WorkloadControllerRef;
  // No omitempty upstream: a Workload built from composite templates reads back with podGroupTemplates: null.
  @EmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => WorkloadPodGroupTemplate) @ListMap('name')
  @Describe('Pod group templates; at most 8, none added or removed after creation. Excludes compositePodGroupTemplates.')
  podGroupTemplates?: WorkloadPodGroupTemplate[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => WorkloadCompositePodGroupTemplate) @ListMap('name')
  @Describe('Composite group templates (CompositePodGroup); at most 8. Immutable. Excludes podGroupTemplates.')
  compositePodGroupTemplates?: WorkloadCompositePodGroupTemplate[];
}

@Describe('Scheduling constraints for a workload: the pod groups it is made of and how they are scheduled and disrupted.')
export class Workload {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @IsOptional() @ValidateNested() @Type(() => WorkloadSpec) @Describe('Scheduling constraints of the workload.') spec?: WorkloadSpec;
}
