/** PodDisruptionBudget (policy/v1), declared for schema checks, patches, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { LabelSelectorSchema, ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, EmitEmpty, Format, Int32, Int64, IntOrString, JSONSchema, MergeByKey, OmitEmpty, PatchReplace } from '../../machinery/schema/declare';

export class PdbSpec {
  @OmitEmpty('pointer')
  @IsOptional()
  @IntOrString('Evictions are allowed while at least this many selected pods (or this percentage) stay available.')
  minAvailable?: number | string;

  @OmitEmpty('pointer')
  @IsOptional()
  @IntOrString('Evictions are allowed while at most this many selected pods (or this percentage) are unavailable. Excludes minAvailable.')
  maxUnavailable?: number | string;

  @OmitEmpty('pointer')
  @IsOptional()
  @ValidateNested()
  @Type(() => LabelSelectorSchema)
  @PatchReplace()
  @Describe('Pods whose evictions the budget manages. Null selects no pods; {} selects every pod in the namespace.')
  selector?: LabelSelectorSchema;

  @OmitEmpty('pointer')
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
  @EmitEmpty() @IsString() @Describe('Kind of condition, e.g. DisruptionAllowed.') type!: string;
  @EmitEmpty() @IsString() @Describe('True, False or Unknown.') status!: string;
  @OmitEmpty() @IsOptional() @Int64() @Describe('Generation the condition was set for.') observedGeneration?: number;
  @EmitEmpty() @IsString() @Format('date-time') lastTransitionTime!: string;
  @EmitEmpty() @IsString() @Describe('Machine-readable CamelCase cause, e.g. SufficientPods.') reason!: string;
  @EmitEmpty() @IsString() @Describe('Human-readable details.') message!: string;
}

export class PdbStatus {
  @OmitEmpty() @IsOptional() @Int64() @Describe('Generation last seen by the writer of this status.') observedGeneration?: number;

  @OmitEmpty()
  @IsOptional()
  @JSONSchema({
    type: 'object',
    additionalProperties: { type: 'string', format: 'date-time' },
    description: 'Pod name to the time its eviction was processed, until the controller sees the pod being deleted.',
  } as never)
  disruptedPods?: Record<string, string>;

  // No omitempty upstream: the four counts are always written, 0 when unset.
  @EmitEmpty() @IsOptional() @Int32() @Describe('Number of pod disruptions currently allowed.') disruptionsAllowed?: number;
  @EmitEmpty() @IsOptional() @Int32() @Describe('Number of healthy pods right now.') currentHealthy?: number;
  @EmitEmpty() @IsOptional() @Int32() @Describe('Minimum number of healthy pods wanted.') desiredHealthy?: number;
  @EmitEmpty() @IsOptional() @Int32() @Describe('Number of pods this budget counts.') expectedPods?: number;

  @OmitEmpty()
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
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  // Structs upstream (omitempty has no effect on them): always written, {} when unset.
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => PdbSpec) @Describe('The desired disruption budget.') spec?: PdbSpec;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => PdbStatus) @Describe('Most recently observed state; may lag behind.') status?: PdbStatus;
}
