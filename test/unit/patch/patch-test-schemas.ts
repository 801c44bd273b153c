/**
 * Small declared kinds for the patch tests, built with the same decorators
 * the real kinds use (class names are global in the schema registry, hence
 * the PatchTest prefix).
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Atomic, JSONSchema, ListSet, MergeByKey, PatchReplace, StringMap } from '../../../src/machinery/schema/declare';
import { Schema, schemaOf } from '../../../src/machinery/schema/schema';

export class PatchTestOwnerRef {
  @IsString() uid!: string;
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsBoolean() controller?: boolean;
}

export class PatchTestMeta {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsString() namespace?: string;
  @IsOptional() @IsString() resourceVersion?: string;
  @IsOptional() @StringMap() labels?: Record<string, string>;
  @IsOptional() @StringMap() annotations?: Record<string, string>;
  @IsOptional() @IsArray() @IsString({ each: true }) @ListSet() finalizers?: string[];
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => PatchTestOwnerRef) @MergeByKey('uid')
  ownerReferences?: PatchTestOwnerRef[];
}

export class PatchTestObjectRef {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsString() namespace?: string;
  @IsOptional() @IsString() kind?: string;
}

/** ServiceAccount-like: secrets and imagePullSecrets merge by name. */
export class PatchTestServiceAccount {
  @IsOptional() @IsString() apiVersion?: string;
  @IsOptional() @IsString() kind?: string;
  @IsOptional() @ValidateNested() @Type(() => PatchTestMeta) metadata?: PatchTestMeta;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => PatchTestObjectRef) @MergeByKey('name')
  secrets?: PatchTestObjectRef[];
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => PatchTestObjectRef) @MergeByKey('name')
  imagePullSecrets?: PatchTestObjectRef[];
  @IsOptional() @IsBoolean() automountServiceAccountToken?: boolean;
}

export class PatchTestCondition {
  @IsString() type!: string;
  @IsString() status!: string;
  @IsOptional() @IsString() reason?: string;
  @IsOptional() @IsString() message?: string;
}

export class PatchTestSelectorRequirement {
  @IsString() key!: string;
  @IsString() operator!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() values?: string[];
}

export class PatchTestSelector {
  @IsOptional() @StringMap() matchLabels?: Record<string, string>;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => PatchTestSelectorRequirement) @Atomic()
  matchExpressions?: PatchTestSelectorRequirement[];
}

/** A one-of source, cleared with $retainKeys like upstream's volume sources. */
export class PatchTestSource {
  @IsOptional() @IsString() configMap?: string;
  @IsOptional() @IsString() secret?: string;
  @IsOptional() @IsString() emptyDir?: string;
}

export class PatchTestClaim {
  @IsString() name!: string;
  @IsOptional() @IsString() resourceClaimName?: string;
  @IsOptional() @IsString() resourceClaimTemplateName?: string;
}

export class PatchTestSpec {
  @IsOptional() @IsInt() minAvailable?: number;
  @IsOptional() @ValidateNested() @Type(() => PatchTestSelector) @PatchReplace() selector?: PatchTestSelector;
  @IsOptional() @ValidateNested() @Type(() => PatchTestSelector) plainSelector?: PatchTestSelector;
  @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() args?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) @ListSet() tags?: string[];
  @IsOptional() @IsArray() @IsInt({ each: true }) @ListSet() ports?: number[];
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => PatchTestClaim) @MergeByKey('name', 'retainKeys')
  claims?: PatchTestClaim[];
  @IsOptional() @ValidateNested() @Type(() => PatchTestSource) @JSONSchema({ 'x-kubernetes-patch-strategy': 'retainKeys' } as never)
  source?: PatchTestSource;
  /** A merged list whose elements are lists: upstream refuses to merge those. */
  @IsOptional() @IsArray() @ListSet() matrix?: string[][];
}

export class PatchTestStatus {
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => PatchTestCondition) @MergeByKey('type')
  conditions?: PatchTestCondition[];
  @IsOptional() @IsInt() observedGeneration?: number;
}

/** PDB-like: replace-strategy selector, conditions merged by type. */
export class PatchTestBudget {
  @IsOptional() @IsString() apiVersion?: string;
  @IsOptional() @IsString() kind?: string;
  @IsOptional() @ValidateNested() @Type(() => PatchTestMeta) metadata?: PatchTestMeta;
  @IsOptional() @ValidateNested() @Type(() => PatchTestSpec) spec?: PatchTestSpec;
  @IsOptional() @ValidateNested() @Type(() => PatchTestStatus) status?: PatchTestStatus;
}

export const serviceAccountSchema = (): Schema => schemaOf(PatchTestServiceAccount);
export const budgetSchema = (): Schema => schemaOf(PatchTestBudget);
