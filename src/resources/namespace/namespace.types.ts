/** Namespace (core v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, Format, MergeByKey, OmitEmpty } from '../../machinery/schema/declare';

export class NamespaceSpec {
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic()
  @Describe('Values that must be removed from this list before the namespace is finally removed from storage.')
  finalizers?: string[];
}

export class NamespaceCondition {
  @EmitEmpty() @IsOptional() @IsString() @Describe('Type of the condition.') type?: string;
  @EmitEmpty() @IsOptional() @IsString() @Describe('Status of the condition: True, False or Unknown.') status?: string;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('When the condition last changed status.') lastTransitionTime?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('A one-word, CamelCase reason for the last transition.') reason?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('A human-readable message about the last transition.') message?: string;
}

export class NamespaceStatus {
  @OmitEmpty() @IsOptional() @IsString() @Describe('The current lifecycle phase of the namespace: Active or Terminating.') phase?: string;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => NamespaceCondition) @MergeByKey('type')
  @Describe('The latest observations of the namespace, e.g. the progress of its deletion.')
  conditions?: NamespaceCondition[];
}

@Describe('A scope for names: namespaced objects live in one namespace, and deleting it deletes them.')
export class Namespace {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => NamespaceSpec) @Describe('The behaviour of the namespace.') spec?: NamespaceSpec;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => NamespaceStatus) @Describe('The current state of the namespace (read-only).') status?: NamespaceStatus;
}
