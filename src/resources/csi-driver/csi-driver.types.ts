/** CSIDriver (storage.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, Enum, Int64, ListSet, OmitEmpty } from '../../machinery/schema/declare';

export class CsiDriverTokenRequest {
  @EmitEmpty() @IsString() @Describe('Audience of the token; empty means the API server audiences.') audience!: string;
  @OmitEmpty('pointer') @IsOptional() @Int64() @Describe('Lifetime of the token in seconds; defaults as a token request does.') expirationSeconds?: number;
}

export class CsiDriverSpec {
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Whether the driver needs an attach (ControllerPublishVolume) before mount. Defaults to true. Immutable.')
  attachRequired?: boolean;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Whether pod information is passed as volume context on NodePublishVolume. Defaults to false.')
  podInfoOnMount?: boolean;
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @ListSet(false)
  @Describe('Volume modes the driver supports: Persistent, Ephemeral. Defaults to [Persistent]. Immutable.')
  volumeLifecycleModes?: string[];
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Whether scheduling considers the CSIStorageCapacity objects the driver publishes. Defaults to false.')
  storageCapacity?: boolean;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Enum('File', 'None', 'ReadWriteOnceWithFSType')
  @Describe('Whether ownership and permissions may be changed before mount. Defaults to ReadWriteOnceWithFSType.')
  fsGroupPolicy?: string;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => CsiDriverTokenRequest) @Atomic()
  @Describe('Service-account tokens the node agent passes to the driver; audiences must be distinct.')
  tokenRequests?: CsiDriverTokenRequest[];
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Whether NodePublishVolume is called periodically. Defaults to false.') requiresRepublish?: boolean;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Whether the driver supports the -o context mount option. Defaults to false.') seLinuxMount?: boolean;
  @OmitEmpty('pointer') @IsOptional() @Int64() @Describe('Seconds between CSINode allocatable refreshes; at least 10. Needs MutableCSINodeAllocatableCount.')
  nodeAllocatableUpdatePeriodSeconds?: number;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Pass tokens in NodePublishVolume secrets instead of volume context; needs tokenRequests.')
  serviceAccountTokenInSecrets?: boolean;
  @OmitEmpty('pointer') @IsOptional() @IsBoolean() @Describe('Do not schedule pods to nodes without this driver. Needs VolumeLimitScaling.')
  preventPodSchedulingIfMissing?: boolean;
}

@Describe('Describes a CSI volume driver deployed on the cluster: whether attach is needed and what the node agent passes on mount.')
export class CSIDriver {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata; the name is the driver name.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @IsOptional() @ValidateNested() @Type(() => CsiDriverSpec) @Describe('Specification of the driver.') spec?: CsiDriverSpec;
}
