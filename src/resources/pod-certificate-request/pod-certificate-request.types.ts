/** PodCertificateRequest (certificates.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, EmitEmpty, Format, Int32, Int64, MergeByKey, OmitEmpty, StringMap } from '../../machinery/schema/declare';

export class PcrSpec {
  @EmitEmpty() @IsString() @Describe('Requested signer; names under svc.io are reserved.') signerName!: string;
  @EmitEmpty() @IsString() @Describe('Pod the certificate is mounted into.') podName!: string;
  @EmitEmpty() @IsString() @Describe('UID of that pod.') podUID!: string;
  @EmitEmpty() @IsString() @Describe('Service account the pod runs as.') serviceAccountName!: string;
  @EmitEmpty() @IsString() @Describe('UID of that service account.') serviceAccountUID!: string;
  @EmitEmpty() @IsString() @Describe('Node the pod is assigned to.') nodeName!: string;
  @EmitEmpty() @IsString() @Describe('UID of that node.') nodeUID!: string;

  @OmitEmpty('pointer')
  @IsOptional()
  @Int32()
  @Describe('Longest certificate lifetime the signer may issue, 3600 to 7862400 seconds (86400 for svc.io signers); defaults to 86400.')
  maxExpirationSeconds?: number;

  @EmitEmpty()
  @IsString()
  @Format('byte')
  @Describe('DER PKCS#10 request made by the node agent with the subject key; carries the public key and proves possession.')
  stubPKCS10Request!: string;

  @OmitEmpty()
  @IsOptional()
  @StringMap('Extra information for the signer from the pod author; keys must be domain-prefixed.')
  unverifiedUserAnnotations?: Record<string, string>;
}

/** metav1.Condition, declared here because every field must carry a class-validator decorator to reach the schema. */
export class PcrCondition {
  @EmitEmpty() @IsString() @Describe('Issued, Denied or Failed.') type!: string;
  @EmitEmpty() @IsString() @Describe('Must be True.') status!: string;
  @OmitEmpty() @IsOptional() @Int64() @Describe('Generation the condition was set for.') observedGeneration?: number;
  @EmitEmpty() @IsString() @Format('date-time') @Describe('When the condition last changed status.') lastTransitionTime!: string;
  @EmitEmpty() @IsString() @Describe('Machine-readable reason, e.g. UnsupportedKeyType.') reason!: string;
  @EmitEmpty() @IsOptional() @IsString() @Describe('Human-readable detail.') message?: string;
}

export class PcrStatus {
  @OmitEmpty()
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PcrCondition)
  @MergeByKey('type')
  @Describe('At most one of Issued, Denied or Failed, with status True.')
  conditions?: PcrCondition[];

  @OmitEmpty() @IsOptional() @IsString() @Describe('Issued PEM certificate chain, leaf first; immutable once set.') certificateChain?: string;
  @OmitEmpty('pointer') @IsOptional() @Format('date-time') @Describe('NotBefore of the leaf certificate.') notBefore?: string;
  @OmitEmpty('pointer') @IsOptional() @Format('date-time') @Describe('NotAfter of the leaf certificate.') notAfter?: string;
  @OmitEmpty('pointer') @IsOptional() @Format('date-time') @Describe('When the node agent should start refreshing the certificate.') beginRefreshAt?: string;
}

@Describe('A pod asking a signer for a certificate; node agents use it for podCertificate projected volumes.')
export class PodCertificateRequest {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @ValidateNested() @Type(() => PcrSpec) @Describe('The request; immutable after creation.') spec!: PcrSpec;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => PcrStatus) @Describe('Set by the signer through /status.') status?: PcrStatus;
}
