/** PodDisruptionBudget (policy/v1), declared for schema checks, patches, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { LabelSelectorSchema, ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, Format, IntOrString, JSONSchema, MergeByKey, PatchReplace } from '../../machinery/schema/declare';

export class PdbSpec {
  @IsOptional()
  @IntOrString('Evictions are allowed while at least this many selected pods (or this percentage) stay available.')
  minAvailable?: number | string;

  @IsOptional()
  @IntOrString('Evictions are allowed while at most this many selected pods (or this percentage) are unavailable. Excludes minAvailable.')
  maxUnavailable?: number | string;

  @IsOptional()
  @ValidateNested()
  @Type(() => LabelSelectorSchema)
  @PatchReplace()
  @Describe('Pods whose evictions the budget manages. Null selects no pods; {} selects every pod in the namespace.')
  selector?: LabelSelectorSchema;

  @IsOptional()
  @IsString()
  @Describe('When running but not yet healthy pods may be evicted: IfHealthyBudget (default) or AlwaysAllow.')
  unhealthyPodEvictionPolicy?: string;
}

/**
 * metav1.Condition. Declared here because the shared ConditionSchema's
 * lastTransitionTime carries no class-validator decorator, so the schema
 * generator leaves it out and the decoder prunes it as unknown.
 */
export class PdbCondition {
  @IsString() @Describe('Kind of condition, e.g. DisruptionAllowed.') type!: string;
  @IsString() @Describe('True, False or Unknown.') status!: string;
  @IsOptional() @IsInt() @Describe('Generation the condition was set for.') observedGeneration?: number;
  @IsString() @Format('date-time') lastTransitionTime!: string;
  @IsString() @Describe('Machine-readable CamelCase cause, e.g. SufficientPods.') reason!: string;
  @IsString() @Describe('Human-readable details.') message!: string;
}

export class PdbStatus {
  @IsOptional() @IsInt() @Describe('Generation last seen by the writer of this status.') observedGeneration?: number;

  @IsOptional()
  @JSONSchema({
    type: 'object',
    additionalProperties: { type: 'string', format: 'date-time' },
    description: 'Pod name to the time its eviction was processed, until the controller sees the pod being deleted.',
  } as never)
  disruptedPods?: Record<string, string>;

  @IsOptional() @IsInt() @Describe('Number of pod disruptions currently allowed.') disruptionsAllowed?: number;
  @IsOptional() @IsInt() @Describe('Number of healthy pods right now.') currentHealthy?: number;
  @IsOptional() @IsInt() @Describe('Minimum number of healthy pods wanted.') desiredHealthy?: number;
  @IsOptional() @IsInt() @Describe('Number of pods this budget counts.') expectedPods?: number;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PdbCondition)
  @MergeByKey('type')
  @Describe('Observations such as DisruptionAllowed, one per type.')
  conditions?: PdbCondition[];
}

@Describe('The maximum disruption that voluntary evictions may cause to a set of pods.')
export class PodDisruptionBudget {
  @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @IsOptional() @ValidateNested() @Type(() => PdbSpec) @Describe('The desired disruption budget.') spec?: PdbSpec;
  @IsOptional() @ValidateNested() @Type(() => PdbStatus) @Describe('Most recently observed state; may lag behind.') status?: PdbStatus;
}
