/** ValidatingAdmissionPolicy (admissionregistration.svc.io/v1), declared for schema checks, patches, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ConditionSchema, ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, Enum, Int64, ListMap, MergeByKey, OmitEmpty } from '../../machinery/schema/declare';
import { MatchCondition } from '../validating-webhook-configuration/admission-rules.types';
import { MatchResources, ParamKind } from './match-resources.types';

export class Validation {
  @EmitEmpty() @IsString() @Describe('CEL expression that must evaluate to true for the request to pass.') expression!: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Message returned when the validation fails; one line.') message?: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('Reason returned when the validation fails: Forbidden (the default), Invalid or RequestEntityTooLarge.')
  reason?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('CEL expression evaluating to the message returned when the validation fails; takes precedence over message.')
  messageExpression?: string;
}

export class Variable {
  @EmitEmpty() @IsString() @Describe('Name of the variable, a CEL identifier; read as `variables.<name>`.') name!: string;
  @EmitEmpty() @IsString() @Describe('CEL expression giving the value of the variable, evaluated lazily and at most once per request.') expression!: string;
}

export class AuditAnnotation {
  @EmitEmpty() @IsString() @Describe('Key of the audit annotation, recorded as `<policy name>/<key>`; a qualified name part, unique in the policy.') key!: string;
  @EmitEmpty() @IsString() @Describe('CEL expression evaluating to the annotation value (a string), or null to leave it out.') valueExpression!: string;
}

export class ValidatingAdmissionPolicySpec {
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => ParamKind) @Describe('Kind of the resources that parameterize the policy; the policy takes no parameters when unset.')
  paramKind?: ParamKind;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => MatchResources) @Describe('Requests the policy cares about; only those are checked. Required.')
  matchConstraints?: MatchResources;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Validation) @Atomic() @Describe('CEL expressions that must all evaluate to true.')
  validations?: Validation[];
  @OmitEmpty('pointer') @IsOptional() @IsString() @Enum('Fail', 'Ignore') @Describe('What an error or misconfiguration of the policy does: Fail (the default) or Ignore.') failurePolicy?: string;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => AuditAnnotation) @Atomic() @Describe('CEL expressions whose values become audit annotations of the request; at most 20.')
  auditAnnotations?: AuditAnnotation[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => MatchCondition) @MergeByKey('name') @Describe('CEL conditions that must all hold for the request to be checked; at most 64.')
  matchConditions?: MatchCondition[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Variable) @MergeByKey('name') @Describe('Named CEL expressions usable in the other expressions as `variables.<name>`, each after those before it.')
  variables?: Variable[];
}

export class ExpressionWarning {
  @EmitEmpty() @IsString() @Describe('Path of the expression the warning is about, e.g. spec.validations[0].expression.') fieldRef!: string;
  @EmitEmpty() @IsString() @Describe('What type checking found.') warning!: string;
}

export class TypeChecking {
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ExpressionWarning) @Atomic() @Describe('Type checking warnings, one per expression.')
  expressionWarnings?: ExpressionWarning[];
}

export class ValidatingAdmissionPolicyStatus {
  @OmitEmpty() @IsOptional() @Int64() @Describe('Generation the status was computed for.') observedGeneration?: number;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => TypeChecking) @Describe('Results of type checking each expression against the matched kinds.') typeChecking?: TypeChecking;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ConditionSchema) @ListMap('type') @Describe('The latest observations of the policy\'s state.')
  conditions?: ConditionSchema[];
}

@Describe('Validates requests with CEL expressions, without leaving the server; applied through ValidatingAdmissionPolicyBindings.')
export class ValidatingAdmissionPolicy {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ValidatingAdmissionPolicySpec) @Describe('What the policy checks and how.') spec?: ValidatingAdmissionPolicySpec;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ValidatingAdmissionPolicyStatus) @Describe('What the server has made of the policy (type checking).') status?: ValidatingAdmissionPolicyStatus;
}
