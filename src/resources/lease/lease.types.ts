/** Lease (coordination.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, Format } from '../../machinery/schema/declare';

export class LeaseSpec {
  @IsOptional() @Format('date-time') @Describe('When the current lease was acquired (microsecond precision).') acquireTime?: string;
  @IsOptional() @IsString() @Describe('Identity of the current holder of the lease.') holderIdentity?: string;
  @IsOptional() @IsInt() @Describe('Seconds candidates wait, from the last observed renewTime, before taking the lease over.')
  leaseDurationSeconds?: number;
  @IsOptional() @IsInt() @Describe('How many times the lease has changed holders.') leaseTransitions?: number;
  @IsOptional() @IsString() @Describe('Signals the holder that a better holder exists; only with strategy.') preferredHolder?: string;
  @IsOptional() @Format('date-time') @Describe('When the current holder last renewed the lease (microsecond precision).') renewTime?: string;
  @IsOptional() @IsString() @Describe('Coordinated leader election strategy. Needs CoordinatedLeaderElection.') strategy?: string;
}

@Describe('A lease: a holder, when it was acquired and renewed, and for how long it holds.')
export class Lease {
  @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @IsOptional() @ValidateNested() @Type(() => LeaseSpec) @Describe('Specification of the lease.') spec?: LeaseSpec;
}
