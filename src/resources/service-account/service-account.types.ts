/** ServiceAccount (core v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema, ObjectReference } from '../../machinery/meta.types';
import { Atomic, Describe, MergeByKey, OmitEmpty } from '../../machinery/schema/declare';

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
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ObjectReference) @MergeByKey('name')
  @Describe('Secrets in the same namespace that pods using this account may use. Only the name is kept.')
  secrets?: ObjectReference[];
}
