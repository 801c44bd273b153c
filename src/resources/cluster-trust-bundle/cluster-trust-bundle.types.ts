/** ClusterTrustBundle (certificates.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, EmitEmpty, OmitEmpty } from '../../machinery/schema/declare';

export class CtbSpec {
  @OmitEmpty()
  @IsOptional()
  @IsString()
  @Describe('Signer these trust anchors belong to, if any; immutable. The object name must then start with the signer name, "/" replaced by ":", followed by ":".')
  signerName?: string;

  @EmitEmpty()
  @IsString()
  @Describe('PEM bundle of X.509 CA certificates (basic constraints CA=true); no block headers, no duplicates, at least one.')
  trustBundle!: string;
}

@Describe('A cluster-scoped set of X.509 trust anchors (root certificates), optionally tied to one signer.')
export class ClusterTrustBundle {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @ValidateNested() @Type(() => CtbSpec) @Describe('The signer and its trust anchors.') spec!: CtbSpec;
}
