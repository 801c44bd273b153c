/**
 * Declared schema of the metadata every object carries (metav1.ObjectMeta)
 * and of shared building blocks, for unknown-field checks, apply and OpenAPI.
 */
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Atomic, Describe, EmitEmpty, Format, Int64, ListSet, MergeByKey, OmitEmpty, PreserveUnknown, StringMap } from './schema/declare';

export class OwnerReferenceSchema {
  @EmitEmpty() @IsString() apiVersion!: string;
  @EmitEmpty() @IsString() kind!: string;
  @EmitEmpty() @IsString() name!: string;
  @EmitEmpty() @IsString() uid!: string;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() controller?: boolean;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() blockOwnerDeletion?: boolean;
}

/** core v1 ObjectReference (Events' involvedObject and related, ServiceAccounts' secrets). */
export class ObjectReference {
  @OmitEmpty() @IsOptional() @IsString() @Describe('API version of the referent.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('A field within the referent, for references to part of an object.') fieldPath?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Kind of the referent.') kind?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Name of the referent.') name?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Namespace of the referent.') namespace?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Resource version of the referent.') resourceVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('UID of the referent.') uid?: string;
}

export class ManagedFieldsEntrySchema {
  @OmitEmpty() @IsOptional() @IsString() manager?: string;
  @OmitEmpty() @IsOptional() @IsString() operation?: string;
  @OmitEmpty() @IsOptional() @IsString() apiVersion?: string;
  @OmitEmpty('pointer') @IsOptional() @Format('date-time') time?: string;
  @OmitEmpty() @IsOptional() @IsString() fieldsType?: string;
  @OmitEmpty('pointer') @IsOptional() @PreserveUnknown() fieldsV1?: Record<string, unknown>;
  @OmitEmpty() @IsOptional() @IsString() subresource?: string;
}

export class ObjectMetaSchema {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Unique name within the namespace (or the cluster for cluster-scoped kinds).') name?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Prefix from which the server generates a unique name when name is empty.') generateName?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Namespace of the object; empty for cluster-scoped kinds.') namespace?: string;
  @OmitEmpty() @IsOptional() @IsString() selfLink?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Server-assigned unique identifier.') uid?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Opaque version of the object, for optimistic concurrency and watches.') resourceVersion?: string;
  @OmitEmpty() @IsOptional() @Int64() @Describe('Sequence number of changes to the desired state.') generation?: number;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('Time the object was created, set by the server.') creationTimestamp?: string;
  @OmitEmpty('pointer') @IsOptional() @Format('date-time') deletionTimestamp?: string;
  @OmitEmpty('pointer') @IsOptional() @Int64() deletionGracePeriodSeconds?: number;
  @OmitEmpty() @IsOptional() @StringMap('Key/value pairs for organizing and selecting objects.') labels?: Record<string, string>;
  @OmitEmpty() @IsOptional() @StringMap('Unstructured key/value data for tools.') annotations?: Record<string, string>;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => OwnerReferenceSchema) @MergeByKey('uid')
  ownerReferences?: OwnerReferenceSchema[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @ListSet() finalizers?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ManagedFieldsEntrySchema) @Atomic()
  managedFields?: ManagedFieldsEntrySchema[];
}

/** metav1.LabelSelector. */
export class LabelSelectorRequirementSchema {
  @EmitEmpty() @IsString() key!: string;
  @EmitEmpty() @IsString() operator!: string;
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() values?: string[];
}

export class LabelSelectorSchema {
  @OmitEmpty() @IsOptional() @StringMap('Labels that must all match.') matchLabels?: Record<string, string>;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => LabelSelectorRequirementSchema) @Atomic()
  matchExpressions?: LabelSelectorRequirementSchema[];
}

/** metav1.Condition, shared by status conditions merged by type. */
export class ConditionSchema {
  @EmitEmpty() @IsString() type!: string;
  @EmitEmpty() @IsString() status!: string;
  @OmitEmpty() @IsOptional() @Int64() observedGeneration?: number;
  @EmitEmpty() @IsString() @Format('date-time') lastTransitionTime!: string;
  @EmitEmpty() @IsString() reason!: string;
  @EmitEmpty() @IsString() message!: string;
}
