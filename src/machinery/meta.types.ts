/**
 * Declared schema of the metadata every object carries (metav1.ObjectMeta)
 * and of shared building blocks, for unknown-field checks, apply and OpenAPI.
 */
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Atomic, Describe, Format, ListSet, MergeByKey, PreserveUnknown, StringMap } from './schema/declare';

export class OwnerReferenceSchema {
  @IsString() apiVersion!: string;
  @IsString() kind!: string;
  @IsString() name!: string;
  @IsString() uid!: string;
  @IsOptional() @IsBoolean() controller?: boolean;
  @IsOptional() @IsBoolean() blockOwnerDeletion?: boolean;
}

export class ManagedFieldsEntrySchema {
  @IsOptional() @IsString() manager?: string;
  @IsOptional() @IsString() operation?: string;
  @IsOptional() @IsString() apiVersion?: string;
  @IsOptional() @Format('date-time') time?: string;
  @IsOptional() @IsString() fieldsType?: string;
  @IsOptional() @PreserveUnknown() fieldsV1?: Record<string, unknown>;
  @IsOptional() @IsString() subresource?: string;
}

export class ObjectMetaSchema {
  @IsOptional() @IsString() @Describe('Unique name within the namespace (or the cluster for cluster-scoped kinds).') name?: string;
  @IsOptional() @IsString() @Describe('Prefix from which the server generates a unique name when name is empty.') generateName?: string;
  @IsOptional() @IsString() @Describe('Namespace of the object; empty for cluster-scoped kinds.') namespace?: string;
  @IsOptional() @IsString() selfLink?: string;
  @IsOptional() @IsString() @Describe('Server-assigned unique identifier.') uid?: string;
  @IsOptional() @IsString() @Describe('Opaque version of the object, for optimistic concurrency and watches.') resourceVersion?: string;
  @IsOptional() @IsInt() @Describe('Sequence number of changes to the desired state.') generation?: number;
  @IsOptional() @Format('date-time') @Describe('Time the object was created, set by the server.') creationTimestamp?: string;
  @IsOptional() @Format('date-time') deletionTimestamp?: string;
  @IsOptional() @IsInt() deletionGracePeriodSeconds?: number;
  @IsOptional() @StringMap('Key/value pairs for organizing and selecting objects.') labels?: Record<string, string>;
  @IsOptional() @StringMap('Unstructured key/value data for tools.') annotations?: Record<string, string>;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => OwnerReferenceSchema) @MergeByKey('uid')
  ownerReferences?: OwnerReferenceSchema[];
  @IsOptional() @IsArray() @IsString({ each: true }) @ListSet() finalizers?: string[];
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ManagedFieldsEntrySchema) @Atomic()
  managedFields?: ManagedFieldsEntrySchema[];
}

/** metav1.LabelSelector. */
export class LabelSelectorRequirementSchema {
  @IsString() key!: string;
  @IsString() operator!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() values?: string[];
}

export class LabelSelectorSchema {
  @IsOptional() @StringMap('Labels that must all match.') matchLabels?: Record<string, string>;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => LabelSelectorRequirementSchema) @Atomic()
  matchExpressions?: LabelSelectorRequirementSchema[];
}

/** metav1.Condition, shared by status conditions merged by type. */
export class ConditionSchema {
  @IsString() type!: string;
  @IsString() status!: string;
  @IsOptional() @IsInt() observedGeneration?: number;
  @IsString() @Format('date-time') lastTransitionTime!: string;
  @IsString() reason!: string;
  @IsString() message!: string;
}
