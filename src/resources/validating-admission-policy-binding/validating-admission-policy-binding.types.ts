/** ValidatingAdmissionPolicyBinding (admissionregistration.svc.io/v1), declared for schema checks, patches, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { LabelSelectorSchema, ObjectMetaSchema } from '../../machinery/meta.types';
import { AtomicStruct, Describe, ListSet, OmitEmpty } from '../../machinery/schema/declare';
import { MatchResources } from '../validating-admission-policy/match-resources.types';

@AtomicStruct()
export class ParamRef {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Name of the parameter resource; excludes selector.') name?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Namespace of the parameter resources; the namespace of the request when unset (for namespaced parameter kinds).') namespace?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => LabelSelectorSchema) @AtomicStruct() @Describe('Parameter resources whose labels match; the policy is checked once per match. Excludes name.')
  selector?: LabelSelectorSchema;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('What happens when no parameter resource is found: Allow or Deny (the request is refused). Required.') parameterNotFoundAction?: string;
}

export class ValidatingAdmissionPolicyBindingSpec {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Name of the ValidatingAdmissionPolicy bound. Required.') policyName?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => ParamRef) @Describe('The parameter resources the policy is checked with; required when the policy has a paramKind.') paramRef?: ParamRef;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => MatchResources) @Describe('Narrows the requests the policy is checked on; all those of its matchConstraints when unset.')
  matchResources?: MatchResources;
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @ListSet(false) @Describe('What a failed validation does: Deny, Warn and/or Audit (not Deny with Warn). Required.')
  validationActions?: string[];
}

@Describe('Binds a ValidatingAdmissionPolicy to parameters and to the requests it is checked on.')
export class ValidatingAdmissionPolicyBinding {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ValidatingAdmissionPolicyBindingSpec) @Describe('The policy, its parameters and the requests it is checked on.') spec?: ValidatingAdmissionPolicyBindingSpec;
}
