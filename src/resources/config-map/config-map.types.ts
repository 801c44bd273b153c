/** ConfigMap (v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, StringMap } from '../../machinery/schema/declare';

@Describe('Holds configuration data for pods to consume.')
export class ConfigMap {
  @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @IsOptional()
  @StringMap('Configuration data. Keys are alphanumerics, "-", "_" or "."; values must be UTF-8 (use binaryData otherwise).')
  data?: Record<string, string>;
  @IsOptional()
  @StringMap('Binary configuration data, base64-encoded. Same key rules as data; keys may not also appear in data.')
  binaryData?: Record<string, string>;
  @IsOptional() @IsBoolean() @Describe('When true, data and binaryData can no longer change; only metadata can.') immutable?: boolean;
}
