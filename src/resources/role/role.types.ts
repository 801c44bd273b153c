/** Role (rbac.authorization.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, OmitEmpty } from '../../machinery/schema/declare';

export class RolePolicyRule {
  @EmitEmpty() @IsArray() @IsString({ each: true }) @Atomic() @Describe('Verbs the rule allows, e.g. get, list, create; "*" means all.') verbs!: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic()
  @Describe('API groups of the resources; "" is the core group, "*" means all.') apiGroups?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic()
  @Describe('Resources (and subresources such as pods/log) the rule applies to; "*" means all.') resources?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic()
  @Describe('Names of the only objects the rule applies to; empty means all.') resourceNames?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic()
  @Describe('Non-resource URL paths; not allowed in a namespaced Role.') nonResourceURLs?: string[];
}

@Describe('A namespaced set of policy rules that a RoleBinding grants as a unit.')
export class Role {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  // No omitempty upstream: a Role without rules reads back as "rules": null.
  @EmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => RolePolicyRule) @Atomic()
  @Describe('The policy rules of this role.') rules?: RolePolicyRule[];
}
