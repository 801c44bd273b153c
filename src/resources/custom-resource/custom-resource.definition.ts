/**
 * The kinds a CustomResourceDefinition defines, as ResourceDefinitions built
 * at run time: one per served version, all stored under the CRD's group and
 * plural in the storage version's form (conversion "None" rewrites
 * apiVersion both ways). The registry serves them like any other kind.
 */
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { decodeSchemaProps, toSchemaTree, type JSONSchemaProps } from '../../machinery/structural';
import { customResourceTable, JSONPath, printerColumnsOrDefault, type PrinterColumn } from '../../machinery/jsonpath';
import { printValue } from '../../machinery/jsonpath/values';
import type { CustomResourceDefinitionSpecObject, CustomResourceDefinitionStatusObject, CustomResourceDefinitionVersionObject } from '../custom-resource-definition';
import { customResourceStrategy, decodeBody, decodeStored, type ServedVersion } from './custom-resource.strategy';
import { statusSubresource } from './custom-resource.status';
import { scaleSubresource } from './custom-resource.scale';
import { webhookConverter, type ConversionWebhook } from './custom-resource.conversion';
import type { WebhookClientConfig, WebhookPort } from '../../ports/webhook.port';

export interface CustomResourceOptions {
  /** The CRD is being deleted: its kinds are still read and deleted, but nothing new is created. Asked on each create. */
  terminating?: boolean | (() => boolean);
  /** How conversion webhooks are called; without it a CRD with strategy Webhook converts as None does. */
  webhooks?: WebhookPort;
}

/** The CRD's conversion webhook, when its strategy is Webhook (caBundle decoded to PEM). */
function conversionWebhook(spec: CustomResourceDefinitionSpecObject): ConversionWebhook | undefined {
  const c = spec.conversion;
  const client = c?.webhook?.clientConfig;
  if (c?.strategy !== 'Webhook' || !client) return undefined;
  const clientConfig: WebhookClientConfig = {};
  if (client.url) clientConfig.url = client.url;
  if (client.service) clientConfig.service = { namespace: client.service.namespace ?? '', name: client.service.name ?? '', path: client.service.path ?? undefined, port: client.service.port ?? 443 };
  if (client.caBundle) clientConfig.caBundle = Buffer.from(client.caBundle, 'base64').toString('utf8');
  return { clientConfig, conversionReviewVersions: c.webhook?.conversionReviewVersions ?? [] };
}

/** Upstream's OpenAPI name of a custom resource's schema: the reversed group, version and kind (com.example.v1.Widget). */
function schemaName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

/** A field selector per selectable field (`spec.color`), read with its JSONPath compiled once. */
function selectableFields(version: CustomResourceDefinitionVersionObject): ResourceDefinition['fieldSelectors'] {
  const out: ResourceDefinition['fieldSelectors'] = {};
  for (const f of version.selectableFields ?? []) {
    if (!f.jsonPath) continue;
    const path = JSONPath.parse(`{${f.jsonPath}}`, { allowMissingKeys: true });
    out[f.jsonPath.replace(/^\./, '')] = (obj) => {
      const results = path.findResults(obj);
      const v = results[0]?.[0];
      return v === null || v === undefined ? '' : printValue(v);
    };
  }
  return out;
}

/** The served versions of a CRD (its status says the names accepted) as ResourceDefinitions. */
export function customResourceKinds(crd: KObject, opts: CustomResourceOptions = {}): ResourceDefinition[] {
  const spec = (crd.spec ?? {}) as CustomResourceDefinitionSpecObject;
  const status = (crd.status ?? {}) as CustomResourceDefinitionStatusObject;
  const names = status.acceptedNames ?? {};
  const group = spec.group ?? '';
  const versions = spec.versions ?? [];
  const storage = versions.find((v) => v.storage)?.name;
  if (!group || !names.plural || !names.kind || !storage) return [];
  const hook = opts.webhooks && conversionWebhook(spec);
  const defs: ResourceDefinition[] = [];
  for (const version of versions) {
    if (!version.served || !version.name) continue;
    let schema: JSONSchemaProps | undefined;
    try {
      schema = version.schema?.openAPIV3Schema ? decodeSchemaProps(version.schema.openAPIV3Schema, '') : undefined;
    } catch {
      continue; // validation refuses such a CRD; one stored before that rule is not served
    }
    const served: ServedVersion = {
      group,
      version: version.name,
      storageVersion: storage,
      kind: names.kind,
      plural: names.plural,
      schema,
      preserveUnknownFields: spec.preserveUnknownFields === true,
      statusEnabled: !!version.subresources?.status,
      scale: (version.subresources?.scale ?? undefined) as ServedVersion['scale'],
      get terminating() {
        return typeof opts.terminating === 'function' ? opts.terminating() : opts.terminating === true;
      },
    };
    const { table } = customResourceTable(printerColumnsOrDefault(version.additionalPrinterColumns as PrinterColumn[] | undefined));
    const subresources: ResourceDefinition['subresources'] = {};
    if (served.statusEnabled) subresources.status = statusSubresource(served);
    if (served.scale) subresources.scale = scaleSubresource(served.scale);
    defs.push({
      group,
      version: version.name,
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      namespaced: spec.scope !== 'Cluster',
      schema: toSchemaTree(schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      schemaName: schemaName(group, version.name, names.kind),
      decodeBody: (obj) => decodeBody(served, obj),
      strategy: customResourceStrategy(served),
      subresources,
      fieldSelectors: selectableFields(version),
      // Upstream's crConverter.ConvertFieldLabel refuses any other field so.
      unknownFieldSelectorMessage: (field) => `field label not supported: ${field}`,
      table,
      usesGeneration: true,
      // Everything outside metadata is the spec of a custom resource; status too, unless it has its own subresource.
      generationIgnores: served.statusEnabled ? ['metadata', 'status'] : ['metadata'],
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
      validateName: nameIsDNSSubdomain,
      strategicMergePatch: false,
      storedAs: hook
        ? {
            // Objects stay in the form they are stored in until the registry converts them (every version: objects
            // stored in an earlier storage version are converted too).
            group,
            plural: names.plural,
            sameForm: version.name === storage,
            toStorage: (obj) => obj,
            fromStorage: (obj) => obj,
            converter: webhookConverter(served, hook, opts.webhooks!),
          }
        : {
            group,
            plural: names.plural,
            sameForm: version.name === storage,
            toStorage: (obj) => ({ ...obj, apiVersion: `${group}/${storage}` }),
            fromStorage: (obj) => decodeStored(served, obj),
          },
      deprecationWarning: version.deprecated ? (version.deprecationWarning ?? `${group}/${version.name} ${names.kind} is deprecated`) : undefined,
    });
  }
  return defs;
}
