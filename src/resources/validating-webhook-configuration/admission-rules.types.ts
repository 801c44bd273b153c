/**
 * Declarations shared by the admissionregistration.svc.io/v1 kinds: rules,
 * match conditions, webhook client configs (upstream's v1 types and JSON tags).
 */
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Atomic, AtomicStruct, Describe, EmitEmpty, Enum, Format, Int32, OmitEmpty } from '../../machinery/schema/declare';

/** Rule with its operations (upstream's RuleWithOperations, Rule inlined). */
export class RuleWithOperations {
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("Operations matched: CREATE, UPDATE, DELETE, CONNECT, or '*' for all.")
  operations?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("API groups matched; '*' for all, \"\" for the core group.")
  apiGroups?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("API versions matched; '*' for all.")
  apiVersions?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("Resources matched: 'pods', 'pods/status', 'pods/*', '*/scale', '*' or '*/*'.")
  resources?: string[];
  @OmitEmpty('pointer') @IsOptional() @IsString() @Enum('*', 'Cluster', 'Namespaced') @Describe('Cluster, Namespaced or "*" (the default).')
  scope?: string;
}

/** A rule that may also name the objects it matches (upstream's NamedRuleWithOperations). */
@AtomicStruct()
export class NamedRuleWithOperations {
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe('Names of the objects matched; empty matches every name.')
  resourceNames?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("Operations matched: CREATE, UPDATE, DELETE, CONNECT, or '*' for all.")
  operations?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("API groups matched; '*' for all, \"\" for the core group.")
  apiGroups?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("API versions matched; '*' for all.")
  apiVersions?: string[];
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe("Resources matched: 'pods', 'pods/status', 'pods/*', '*/scale', '*' or '*/*'.")
  resources?: string[];
  @OmitEmpty('pointer') @IsOptional() @IsString() @Enum('*', 'Cluster', 'Namespaced') @Describe('Cluster, Namespaced or "*" (the default).')
  scope?: string;
}

export class MatchCondition {
  @EmitEmpty() @IsString() @Describe('Identifies the condition in errors and logs; a qualified name, unique in its list.') name!: string;
  @EmitEmpty() @IsString() @Describe('CEL expression that must evaluate to a bool: the request is sent or checked only when all conditions are true.') expression!: string;
}

export class ServiceReference {
  @EmitEmpty() @IsString() @Describe('Namespace of the service.') namespace!: string;
  @EmitEmpty() @IsString() @Describe('Name of the service.') name!: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('URL path requests are sent to.') path?: string;
  @OmitEmpty('pointer') @IsOptional() @Int32() @Describe('Port of the service; defaults to 443.') port?: number;
}

export class WebhookClientConfig {
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('https URL of the webhook (no user, query or fragment); excludes service.') url?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => ServiceReference) @Describe('Service of the webhook; excludes url.') service?: ServiceReference;
  @OmitEmpty() @IsOptional() @Format('byte') @Describe('PEM CA bundle that verifies the webhook\'s serving certificate, base64-encoded; the system roots when empty.') caBundle?: string;
}
