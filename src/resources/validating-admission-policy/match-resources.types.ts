/** MatchResources and ParamKind, shared by ValidatingAdmissionPolicy and its bindings (upstream's v1 types and JSON tags). */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { LabelSelectorSchema } from '../../machinery/meta.types';
import { Atomic, AtomicStruct, Describe, Enum, OmitEmpty } from '../../machinery/schema/declare';
import { NamedRuleWithOperations } from '../validating-webhook-configuration/admission-rules.types';

@AtomicStruct()
export class MatchResources {
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => LabelSelectorSchema) @AtomicStruct() @Describe('Objects in namespaces whose labels match are checked; {} (the default) matches all.')
  namespaceSelector?: LabelSelectorSchema;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => LabelSelectorSchema) @AtomicStruct() @Describe('Objects whose labels (old or new) match are checked; {} (the default) matches all.')
  objectSelector?: LabelSelectorSchema;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => NamedRuleWithOperations) @Atomic() @Describe('Operations on resources that are checked; a request matching any rule is.')
  resourceRules?: NamedRuleWithOperations[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => NamedRuleWithOperations) @Atomic() @Describe('Operations on resources that are never checked; exclusion wins over inclusion.')
  excludeResourceRules?: NamedRuleWithOperations[];
  @OmitEmpty('pointer') @IsOptional() @IsString() @Enum('Equivalent', 'Exact') @Describe('Whether requests to equivalent resources in other groups or versions match: Equivalent (the default) or Exact.')
  matchPolicy?: string;
}

@AtomicStruct()
export class ParamKind {
  @OmitEmpty() @IsOptional() @IsString() @Describe('API group version of the parameter resources, e.g. "v1" or "example.com/v1".') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Kind of the parameter resources, e.g. ConfigMap.') kind?: string;
}
