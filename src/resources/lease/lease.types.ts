/** Lease (coordination.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, Format, Int32, OmitEmpty } from '../../machinery/schema/declare';

export class LeaseSpec {
  @OmitEmpty('pointer') @IsOptional() @Format('date-time') @Describe('When the current lease was acquired (microsecond precision).') acquireTime?: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('Identity of the current holder of the lease.') holderIdentity?: string;
  @OmitEmpty('pointer') @IsOptional() @Int32() @Describe('Seconds candidates wait, from the last observed renewTime, before taking the lease over.')
  leaseDurationSeconds?: number;
  @OmitEmpty('pointer') @IsOptional() @Int32() @Describe('How many times the lease has changed holders.') leaseTransitions?: number;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('Signals the holder that a better holder exists; only with strategy.') preferredHolder?: string;
  @OmitEmpty('pointer') @IsOptional() @Format('date-time') @Describe('When the current holder last renewed the lease (microsecond precision).') renewTime?: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('Coordinated leader election strategy. Needs CoordinatedLeaderElection.') strategy?: string;
}

@Describe('A lease: a holder, when it was acquired and renewed, and for how long it holds.')
export class Lease {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  // A struct upstream (`json:"spec,omitempty"` has no effect on it): always written, {} when unset.
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => LeaseSpec) @Describe('Specification of the lease.') spec?: LeaseSpec;
}
