/**
 * CustomResourceDefinition (apiextensions.svc.io/v1), declared for schema
 * checks, apply and OpenAPI. The openAPIV3Schema subtree is kept whole
 * (free-form here): its union-typed keywords (items, additionalProperties,
 * dependencies) do not fit a class, and the strategy decodes it the way Go
 * decodes JSONSchemaProps (machinery/structural/decode-schema-props.ts).
 */
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ObjectMetaSchema } from '../../machinery/meta.types';
import { Atomic, Describe, EmitEmpty, Format, Int32, Int64, JSONSchema, ListMap, OmitEmpty, PreserveUnknown } from '../../machinery/schema/declare';

export class CustomResourceDefinitionNames {
  @EmitEmpty() @IsString() @Describe('Plural name of the resource, lowercase, used in URLs: /apis/<group>/<version>/<plural>.') plural!: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Singular name, lowercase; defaults to the lowercased kind.') singular?: string;
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe('Short names for kubectl, lowercase.') shortNames?: string[];
  @EmitEmpty() @IsString() @Describe('The serialized kind, CamelCase.') kind!: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Kind of lists of the resource; defaults to `<kind>List`.') listKind?: string;
  @OmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe('Groupings such as "all" for kubectl get all.') categories?: string[];
}

export class CrdServiceReference {
  @EmitEmpty() @IsString() @Describe('Namespace of the webhook service.') namespace!: string;
  @EmitEmpty() @IsString() @Describe('Name of the webhook service.') name!: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('URL path the webhook is called at.') path?: string;
  @OmitEmpty('pointer') @IsOptional() @Int32() @Describe('Port of the service; defaults to 443.') port?: number;
}

export class CrdWebhookClientConfig {
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('https URL of the webhook; excludes service.') url?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => CrdServiceReference) @Describe('Service of the webhook; excludes url.') service?: CrdServiceReference;
  @OmitEmpty() @IsOptional() @Format('byte') @Describe('PEM CA bundle that verifies the webhook, base64-encoded.') caBundle?: string;
}

export class CrdWebhookConversion {
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => CrdWebhookClientConfig) @Describe('How to call the conversion webhook.') clientConfig?: CrdWebhookClientConfig;
  @EmitEmpty() @IsArray() @IsString({ each: true }) @Atomic() @Describe('ConversionReview versions the webhook accepts, in order of preference.') conversionReviewVersions!: string[];
}

export class CustomResourceConversion {
  @EmitEmpty() @IsString() @Describe('None or Webhook.') strategy!: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => CrdWebhookConversion) @Describe('The webhook, when strategy is Webhook.') webhook?: CrdWebhookConversion;
}

export class CustomResourceValidation {
  @OmitEmpty('pointer') @IsOptional() @PreserveUnknown() @Describe('OpenAPI v3 schema of the resource (structural).') openAPIV3Schema?: Record<string, unknown>;
}

export class CustomResourceSubresourceScale {
  @EmitEmpty() @IsString() @Describe('JSON path to the desired replicas under .spec.') specReplicasPath!: string;
  @EmitEmpty() @IsString() @Describe('JSON path to the observed replicas under .status.') statusReplicasPath!: string;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('JSON path to a label selector string under .spec or .status.') labelSelectorPath?: string;
}

export class CustomResourceSubresources {
  @OmitEmpty('pointer') @IsOptional() @JSONSchema({ type: 'object', properties: {}, description: 'Enables the /status subresource.' } as never) status?: Record<string, never>;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => CustomResourceSubresourceScale) @Describe('Enables the /scale subresource.') scale?: CustomResourceSubresourceScale;
}

export class CustomResourceColumnDefinition {
  @EmitEmpty() @IsString() @Describe('Column header.') name!: string;
  @EmitEmpty() @IsString() @Describe('integer, number, string, boolean or date.') type!: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Format hint, e.g. int32, date-time, name.') format?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Column description.') description?: string;
  @OmitEmpty() @IsOptional() @Int32() @Describe('0 shows the column in standard view; more only with -o wide.') priority?: number;
  @EmitEmpty() @IsString() @Describe('Simple JSON path evaluated against each object, e.g. .spec.replicas.') jsonPath!: string;
}

export class SelectableField {
  @EmitEmpty() @IsString() @Describe('Simple JSON path to a string, boolean or integer field usable in field selectors.') jsonPath!: string;
}

export class CustomResourceDefinitionVersion {
  @EmitEmpty() @IsString() @Describe('Version name, e.g. v1 or v2beta1.') name!: string;
  @EmitEmpty() @IsBoolean() @Describe('Whether the version is served.') served!: boolean;
  @EmitEmpty() @IsBoolean() @Describe('Whether objects are stored in this version; exactly one is.') storage!: boolean;
  @OmitEmpty() @IsOptional() @IsBoolean() @Describe('Whether requests to this version get a deprecation warning.') deprecated?: boolean;
  @OmitEmpty('pointer') @IsOptional() @IsString() @Describe('The deprecation warning to send instead of the default one.') deprecationWarning?: string;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => CustomResourceValidation) @Describe('Schema of this version.') schema?: CustomResourceValidation;
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => CustomResourceSubresources) @Describe('Subresources of this version.') subresources?: CustomResourceSubresources;
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => CustomResourceColumnDefinition) @Atomic() @Describe('Table columns; an Age column when empty.')
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  @OmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => SelectableField) @Atomic() @Describe('Fields usable in field selectors, at most 8.')
  selectableFields?: SelectableField[];
}

export class CustomResourceDefinitionSpec {
  @EmitEmpty() @IsString() @Describe('API group of the resource, a DNS subdomain with a dot.') group!: string;
  @EmitEmpty() @ValidateNested() @Type(() => CustomResourceDefinitionNames) @Describe('Names of the resource and its kind.') names!: CustomResourceDefinitionNames;
  @EmitEmpty() @IsString() @Describe('Cluster or Namespaced.') scope!: string;
  @EmitEmpty() @IsArray() @ValidateNested({ each: true }) @Type(() => CustomResourceDefinitionVersion) @Atomic() @Describe('Versions served, with their schemas.')
  versions!: CustomResourceDefinitionVersion[];
  @OmitEmpty('pointer') @IsOptional() @ValidateNested() @Type(() => CustomResourceConversion) @Describe('How objects convert between versions.') conversion?: CustomResourceConversion;
  @OmitEmpty() @IsOptional() @IsBoolean() @Describe('Must be false in v1: unknown fields are pruned unless the schema preserves them.') preserveUnknownFields?: boolean;
}

export class CustomResourceDefinitionCondition {
  @EmitEmpty() @IsString() @Describe('Established, NamesAccepted, Terminating...') type!: string;
  @EmitEmpty() @IsString() @Describe('True, False or Unknown.') status!: string;
  @OmitEmpty() @IsOptional() @Format('date-time') @Describe('When the status last changed.') lastTransitionTime?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Machine-readable CamelCase reason.') reason?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('Human-readable detail.') message?: string;
  @OmitEmpty() @IsOptional() @Int64() @Describe('Generation the condition was set for.') observedGeneration?: number;
}

export class CustomResourceDefinitionStatus {
  @EmitEmpty() @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => CustomResourceDefinitionCondition) @ListMap('type') @Describe('Conditions of the definition.')
  conditions?: CustomResourceDefinitionCondition[];
  @EmitEmpty() @IsOptional() @ValidateNested() @Type(() => CustomResourceDefinitionNames) @Describe('Names actually served (they may differ from spec.names on conflicts).')
  acceptedNames?: CustomResourceDefinitionNames;
  @EmitEmpty() @IsOptional() @IsArray() @IsString({ each: true }) @Atomic() @Describe('Versions objects were ever stored in.') storedVersions?: string[];
  @OmitEmpty() @IsOptional() @Int64() @Describe('Generation the status was computed for.') observedGeneration?: number;
}

@Describe('Describes a resource kind served by this server from its schema (a custom resource).')
export class CustomResourceDefinition {
  @OmitEmpty() @IsOptional() @IsString() @Describe('Versioned schema of this representation.') apiVersion?: string;
  @OmitEmpty() @IsOptional() @IsString() @Describe('REST resource this object represents.') kind?: string;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => ObjectMetaSchema) @Describe('Standard object metadata.') metadata?: ObjectMetaSchema;
  @EmitEmpty() @ValidateNested() @Type(() => CustomResourceDefinitionSpec) @Describe('The resource to serve.') spec!: CustomResourceDefinitionSpec;
  @OmitEmpty() @IsOptional() @ValidateNested() @Type(() => CustomResourceDefinitionStatus) @Describe('What the server has made of the definition.') status?: CustomResourceDefinitionStatus;
}
