/** ClusterRole (rbac.authorization.svc.io/v1), declared for schema checks, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { LabelSelectorSchema, ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, OmitEmpty } from '../../machinery/schema/declare';
import { RolePolicyRule } from '../role/role.types';

@Describe('Which ClusterRoles an aggregated ClusterRole gathers its rules from.')
export class ClusterRoleAggregationRule {
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => LabelSelectorSchema) @Atomic()
  @Describe('ClusterRoles matching any of these selectors lend their rules; a controller keeps rules in sync.')
  clusterRoleSelectors?: LabelSelectorSchema[];
}

@Describe('A cluster-wide set of policy rules, bound in one namespace by a RoleBinding or everywhere by a ClusterRoleBinding.')
export class ClusterRole {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  // As Role: no omitempty upstream, so a ClusterRole without rules reads back "rules": null.
  @EmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => RolePolicyRule) @Atomic()
  @Describe('The policy rules of this role; controller-managed when aggregationRule is set.') rules?: RolePolicyRule[];
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => ClusterRoleAggregationRule)
  @Describe('When set, rules are the union of the rules of the selected ClusterRoles.') aggregationRule?: ClusterRoleAggregationRule;
}
