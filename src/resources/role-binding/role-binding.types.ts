/** RoleBinding (rbac.authorization.svc.io/v1), declared for schema checks, apply and OpenAPI; RoleRef and Subject are shared with ClusterRoleBinding. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, AtomicStruct, Describe, EmitEmpty, OmitEmpty } from '../../machinery/schema/declare';

@AtomicStruct()
@Describe('The role a binding grants.')
export class RbacRoleRef {
  @EmitEmpty() @IsString() @Describe('Group of the referenced role: rbac.authorization.svc.io (the default).') apiGroup!: string;
  @EmitEmpty() @IsString() @Describe('Role or ClusterRole.') kind!: string;
  @EmitEmpty() @IsString() @Describe('Name of the referenced role.') name!: string;
}

@AtomicStruct()
@Describe('A user, group or service account a binding grants its role to.')
export class RbacSubject {
  @EmitEmpty() @IsString() @Describe('User, Group or ServiceAccount.') kind!: string;
  @OmitEmpty() @IsOptional() @IsString()
  @Describe('rbac.authorization.svc.io for User and Group (defaulted), empty for ServiceAccount.') apiGroup?: string;
  @EmitEmpty() @IsString() @Describe('Name of the user, group or service account.') name!: string;
  @OmitEmpty() @IsOptional() @IsString()
  @Describe('Namespace of a ServiceAccount; required in a ClusterRoleBinding, and in a RoleBinding empty means the binding\'s own.') namespace?: string;
}

@Describe('Grants the rules of a Role or ClusterRole to a set of subjects within one namespace.')
export class RoleBinding {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => RbacSubject) @Atomic()
  @Describe('Who the role is granted to.') subjects?: RbacSubject[];
  @EmitEmpty() @ValidateNested() @Type(() => RbacRoleRef)
  @Describe('A Role in this namespace or a ClusterRole; cannot be changed once set.') roleRef!: RbacRoleRef;
}
