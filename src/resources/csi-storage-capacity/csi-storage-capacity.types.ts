/** CSIStorageCapacity (storage.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { LabelSelectorSchema, ObjectMetaSchema } from '../../machinery/meta.types';
import { Describe, EmitEmpty, JSONSchema, OmitEmpty, QuantityField } from '../../machinery/schema/declare';

@Describe('The result of one CSI GetCapacity call for a storage class in a topology segment, used to place new volumes.')
export class CSIStorageCapacity {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata; the name is a DNS subdomain with no meaning.')
  metadata?: ObjectMetaSchema;
  // metav1.LabelSelector is an atomic struct upstream: apply replaces it whole.
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => LabelSelectorSchema) @JSONSchema({ 'x-kubernetes-map-type': 'atomic' } as never)
  @Describe('Nodes that can reach this storage: unset means none, empty means all. Immutable.')
  nodeTopology?: LabelSelectorSchema;
  @EmitEmpty() @IsString() @Describe('StorageClass this capacity applies to; a DNS subdomain. Immutable.') storageClassName!: string;
  @OmitEmpty('pointer') @IsOptional() @QuantityField('Capacity the driver reported for the class and topology; unset means unknown.') capacity?: string;
  @OmitEmpty('pointer') @IsOptional() @QuantityField('Largest volume size the driver reported it can create for the class and topology.')
  maximumVolumeSize?: string;
}
