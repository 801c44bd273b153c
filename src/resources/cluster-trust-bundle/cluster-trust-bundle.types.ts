/** ClusterTrustBundle (certificates.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe } from '../../machinery/schema/declare';

export class CtbSpec {
  @IsOptional()
  @IsString()
  @Describe('Signer these trust anchors belong to, if any; immutable. The object name must then start with the signer name, "/" replaced by ":", followed by ":".')
  signerName?: string;

  @IsString()
  @Describe('PEM bundle of X.509 CA certificates (basic constraints CA=true); no block headers, no duplicates, at least one.')
  trustBundle!: string;
}

@Describe('A cluster-scoped set of X.509 trust anchors (root certificates), optionally tied to one signer.')
export class ClusterTrustBundle {
  @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @ValidateNested() @Type(() => CtbSpec) @Describe('The signer and its trust anchors.') spec!: CtbSpec;
}
