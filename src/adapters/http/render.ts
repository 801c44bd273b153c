/**
 * Objects and lists as the client asked for them: the object itself, a
 * meta.k8s.io Table (what kubectl get prints), or PartialObjectMetadata.
 */
import type { Request, Response } from 'express';
import { errors } from '../../machinery/status';
import { KList, KObject } from '../../machinery/object';
import { ColumnDefinition, ResourceDefinition } from '../../machinery/resource-definition';
import { ResponseFormat } from './media';
import type { ListResult } from '../../registry/results';
import { send } from './respond';
import { requestInfoOf } from './request-info';

const defaultColumns: ColumnDefinition[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
  { name: 'Created At', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 },
];

function partialMetadata(obj: KObject) {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

function includeObject(req: Request): 'None' | 'Metadata' | 'Object' {
  const v = requestInfoOf(req).query.first('includeObject');
  if (v === undefined || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw errors.badRequest(`unrecognized includeObject value: "${String(v)}"`);
}

export function tableColumns(def: ResourceDefinition): ColumnDefinition[] {
  return def.table?.columns ?? defaultColumns;
}

export function tableRow(def: ResourceDefinition, obj: KObject, include: 'None' | 'Metadata' | 'Object', now = new Date()) {
  const cells = def.table ? def.table.cells(obj, now) : [obj.metadata.name, obj.metadata.creationTimestamp];
  const row: Record<string, unknown> = { cells };
  if (include === 'Metadata') row.object = partialMetadata(obj);
  else if (include === 'Object') row.object = obj;
  return row;
}

export function toTable(req: Request, def: ResourceDefinition, items: KObject[], metadata: KList['metadata'], version: 'v1' | 'v1beta1', headers = true) {
  const include = includeObject(req);
  const table: Record<string, unknown> = { kind: 'Table', apiVersion: `meta.k8s.io/${version}`, metadata };
  if (headers) table.columnDefinitions = tableColumns(def);
  table.rows = items.map((o) => tableRow(def, o, include));
  return table;
}

export function renderObject(req: Request, res: Response, def: ResourceDefinition, code: number, obj: KObject, format: ResponseFormat): void {
  if (format === 'table' || format === 'table-v1beta1') {
    const table = toTable(req, def, [obj], { resourceVersion: obj.metadata.resourceVersion }, format === 'table' ? 'v1' : 'v1beta1');
    send(req, res, code, table, 'json');
  } else if (format === 'partial-metadata') {
    send(req, res, code, partialMetadata(obj), 'json');
  } else if (format === 'partial-metadata-list') {
    throw errors.notAcceptable('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  } else send(req, res, code, obj, format);
}

export function renderList(req: Request, res: Response, def: ResourceDefinition, list: ListResult, format: ResponseFormat): void {
  if (format === 'table' || format === 'table-v1beta1') {
    send(req, res, 200, toTable(req, def, list.items, list.metadata, format === 'table' ? 'v1' : 'v1beta1'), 'json');
  } else if (format === 'partial-metadata-list') {
    send(req, res, 200, { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: list.metadata, items: list.items.map(partialMetadata) }, 'json');
  } else if (format === 'partial-metadata') {
    throw errors.notAcceptable('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  } else send(req, res, 200, list.toJSON(), format);
}
