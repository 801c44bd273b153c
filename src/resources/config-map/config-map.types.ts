/** ConfigMap (v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, OmitEmpty, StringMap } from '../../machinery/schema/declare';

@Describe('Holds configuration data for pods to consume.')
export class ConfigMap {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty()
  @IsOptional()
  @StringMap('Configuration data. Keys are alphanumerics, "-", "_" or "."; values must be UTF-8 (use binaryData otherwise).')
  data?: Record<string, string>;
  @OmitEmpty()
  @IsOptional()
  @StringMap('Binary configuration data, base64-encoded. Same key rules as data; keys may not also appear in data.')
  binaryData?: Record<string, string>;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('When true, data and binaryData can no longer change; only metadata can.') immutable?: boolean;
}
