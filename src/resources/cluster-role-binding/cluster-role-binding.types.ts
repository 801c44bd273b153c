/** ClusterRoleBinding (rbac.authorization.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, OmitEmpty } from '../../machinery/schema/declare';
import { RbacRoleRef, RbacSubject } from '../role-binding/role-binding.types';

@Describe('Grants the rules of a ClusterRole to a set of subjects in every namespace and at cluster scope.')
export class ClusterRoleBinding {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => RbacSubject) @Atomic()
  @Describe('Who the role is granted to.') subjects?: RbacSubject[];
  @EmitEmpty() @ValidateNested() @Type(() => RbacRoleRef)
  @Describe('A ClusterRole; cannot be changed once set.') roleRef!: RbacRoleRef;
}
