/** ServiceAccount (core v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, MergeByKey, OmitEmpty } from '../../machinery/schema/declare';

/** core v1 ObjectReference. */
export class ServiceAccountObjectReference {
  @OmitEmpty() @IsOptional() @IsString() @Describe('API version of the referent.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('A field within the referent, for references to part of an object.') fieldPath?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Kind of the referent.') kind?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Name of the referent.') name?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Namespace of the referent.') namespace?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Resource version of the referent.') resourceVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('UID of the referent.') uid?: string;
}

/** core v1 LocalObjectReference. */
export class ServiceAccountLocalObjectReference {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Name of the referent in the same namespace.') name?: string;
}

@Describe('A named identity for processes in pods, with the secrets they may use.')
export class ServiceAccount {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Whether pods using this account get an API token mounted automatically; a pod may override it.')
  automountServiceAccountToken?: boolean;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ServiceAccountLocalObjectReference) @Atomic()
  @Describe('Secrets in the same namespace used to pull the images of pods using this account.')
  imagePullSecrets?: ServiceAccountLocalObjectReference[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ServiceAccountObjectReference) @MergeByKey('name')
  @Describe('Secrets in the same namespace that pods using this account may use. Only the name is kept.')
  secrets?: ServiceAccountObjectReference[];
}
