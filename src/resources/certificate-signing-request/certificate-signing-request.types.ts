/** CertificateSigningRequest (certificates.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, Format, Int32, JSONSchema, ListMap, OmitEmpty } from '../../machinery/schema/declare';

export class CsrSpec {
  @EmitEmpty()
  @IsString()
  @Format('byte')
  @Describe('A PKCS#10 request in a "CERTIFICATE REQUEST" PEM block; base64-encoded again in JSON and YAML.')
  request!: string;

  @EmitEmpty()
  @IsString()
  @Describe('The signer asked to issue the certificate, as `domain/name`. Selectable with the field selector spec.signerName.')
  signerName!: string;

  @OmitEmpty('pointer')
  @IsOptional()
  @Int32()
  @Describe('Requested validity in seconds, at least 600. Signers may issue a different duration.')
  expirationSeconds?: number;

  @OmitEmpty()
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Atomic()
  @Describe('Requested key usages, e.g. "digital signature", "key encipherment", "client auth".')
  usages?: string[];

  @OmitEmpty() @IsOptional() @IsString() @Describe('Name of the user who created the request; set by the server.') username?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('UID of the user who created the request; set by the server.') uid?: string;

  @OmitEmpty()
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Atomic()
  @Describe('Groups of the user who created the request; set by the server.')
  groups?: string[];

  @OmitEmpty()
  @IsOptional()
  @JSONSchema({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'Extra attributes of the user who created the request; set by the server.',
  } as never)
  extra?: Record<string, string[]>;
}

export class CsrCondition {
  @EmitEmpty() @IsString() @Describe('Approved, Denied, Failed, or another type.') type!: string;
  @EmitEmpty() @IsString() @Describe('True, False or Unknown; Approved, Denied and Failed must be True.') status!: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Short machine-readable reason.') reason?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Human-readable detail.') message?: string;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('When the condition was last updated; defaulted by the server.') lastUpdateTime?: string;
  @OmitEmpty()
  @IsOptional()
  @Format('date-time')
  @Describe('When the condition last changed status; defaulted by the server when the type is added or its status changes.')
  lastTransitionTime?: string;
}

export class CsrStatus {
  @OmitEmpty()
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => CsrCondition)
  @ListMap('type')
  @Describe('Approved, Denied and Failed conditions; never removed once added.')
  conditions?: CsrCondition[];

  @OmitEmpty()
  @IsOptional()
  @Format('byte')
  @Describe('The issued certificate as PEM CERTIFICATE blocks, set through /status after approval; immutable once set.')
  certificate?: string;
}

@Describe('A request for an x509 certificate: submitted, then approved or denied, then issued by its signer.')
export class CertificateSigningRequest {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @ValidateNested() @Type(() => CsrSpec) @Describe('The request; immutable after creation.') spec!: CsrSpec;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => CsrStatus) @Describe('Approval state and the issued certificate.') status?: CsrStatus;
}
