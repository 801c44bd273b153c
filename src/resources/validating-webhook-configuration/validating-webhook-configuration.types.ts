/** ValidatingWebhookConfiguration (admissionregistration.svc.io/v1), declared for schema checks, patches, apply and OpenAPI. */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { LabelSelectorSchema, ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, AtomicStruct, Describe, EmitEmpty, Enum, Int32, MergeByKey, OmitEmpty } from '../../machinery/schema/declare';
import { MatchCondition, RuleWithOperations, WebhookClientConfig } from './admission-rules.types';

export class ValidatingWebhook {
  @EmitEmpty() @IsString() @Describe('Fully qualified name of the webhook (at least three DNS segments), unique in its configuration.') name!: string;
  @EmitEmpty() @ValidateNested() @Type(() => WebhookClientConfig) @Describe('How to reach the webhook.') clientConfig!: WebhookClientConfig;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => RuleWithOperations) @Atomic() @Describe('Operations on resources the webhook cares about; it is called when any rule matches.')
  rules?: RuleWithOperations[];
  @OmitEmpty('pointer') @IsOptional() @IsString() @Enum('Fail', 'Ignore') @Describe('What an error calling the webhook does: Fail (the default) or Ignore.') failurePolicy?: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Enum('Equivalent', 'Exact') @Describe('Whether requests to equivalent resources in other groups or versions match: Equivalent (the default) or Exact.')
  matchPolicy?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => LabelSelectorSchema) @AtomicStruct() @Describe("Objects in namespaces whose labels match are sent; {} (the default) matches all.")
  namespaceSelector?: LabelSelectorSchema;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => LabelSelectorSchema) @AtomicStruct() @Describe('Objects whose labels (old or new) match are sent; {} (the default) matches all.')
  objectSelector?: LabelSelectorSchema;
  @EmitEmpty('pointer') @IsOptional() @IsString() @Enum('None', 'NoneOnDryRun', 'Some', 'Unknown') @Describe('Whether calling the webhook has side effects: None or NoneOnDryRun in v1.') sideEffects?: string;
  @OmitEmpty('pointer') @IsOptional() @Int32() @Describe('Seconds to wait for the webhook, 1 to 30; defaults to 10.') timeoutSeconds?: number;
  @EmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe('AdmissionReview versions the webhook accepts, in order of preference; must include v1 or v1beta1.')
  admissionReviewVersions?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => MatchCondition) @MergeByKey('name') @Describe('CEL conditions that must all hold for the request to be sent; at most 64.')
  matchConditions?: MatchCondition[];
}

@Describe('Admission webhooks that accept or reject objects without changing them.')
export class ValidatingWebhookConfiguration {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ValidatingWebhook) @MergeByKey('name') @Describe('The webhooks and the resources and operations they apply to.')
  webhooks?: ValidatingWebhook[];
}
