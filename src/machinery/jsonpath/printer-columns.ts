/**
 * Table output of custom resources from their printer columns, as upstream's
 * CR table convertor: Name, then one cell per column from the first result
 * of its JSONPath. String columns print the value as JSONPath prints it;
 * integer, number and boolean columns take values of their kind (null
 * otherwise); date columns show the age of an RFC 3339 time.
 */
import type { FieldError } from '../field-errors';
import { fieldErrors, FieldPath } from '../field-errors';
import type { KObject } from '../object';
import type { ColumnDefinition, TableConvention } from '../resource-definition';
import { age, nameColumn } from '../table';
import { JSONPath } from './jsonpath';
import { printValue } from './values';

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

const creationTimestampDoc =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** Upstream serves an Age column when a version declares none. */
export function printerColumnsOrDefault(columns: PrinterColumn[] | undefined): PrinterColumn[] {
  if (columns && columns.length > 0) return columns;
  return [{ name: 'Age', type: 'date', description: creationTimestampDoc, jsonPath: '.metadata.creationTimestamp' }];
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A cell of a non-string column: the value if it has the column's type. */
function cellFor(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      if (value === '' || value === 'null') return '<unknown>';
      if (!rfc3339.test(value) || Number.isNaN(Date.parse(value))) return '<invalid>';
      return age(value, now);
    default:
      return null;
  }
}

export interface CustomResourceTable {
  table: TableConvention;
  /** Set when a column's JSONPath does not parse; the table then stops before that column, as upstream's does. */
  error?: string;
}

export function customResourceTable(columns: PrinterColumn[]): CustomResourceTable {
  const defs: ColumnDefinition[] = [nameColumn];
  const paths: JSONPath[] = [];
  let error: string | undefined;
  for (const col of columns) {
    let path: JSONPath;
    try {
      path = JSONPath.parse(`{${col.jsonPath}}`, { allowMissingKeys: true });
    } catch {
      error = `unrecognized column definition ${JSON.stringify(col.jsonPath)}`;
      break;
    }
    paths.push(path);
    defs.push({
      name: col.name,
      type: col.type as ColumnDefinition['type'],
      ...(col.format ? { format: col.format } : {}),
      description: col.description || `Custom resource definition column (in JSONPath format): ${col.jsonPath}`,
      priority: col.priority ?? 0,
    });
  }
  const table: TableConvention = {
    columns: defs,
    cells(obj: KObject, now: Date) {
      const cells: unknown[] = [obj.metadata?.name ?? ''];
      paths.forEach((path, i) => {
        let results: unknown[][];
        try {
          results = path.findResults(obj);
        } catch {
          cells.push(null);
          return;
        }
        if (results.length === 0 || results[0].length === 0) return void cells.push(null);
        const value = results[0][0];
        const type = defs[i + 1].type;
        cells.push(type === 'string' ? printValue(value, true) : cellFor(type, value, now));
      });
      return cells;
    },
  };
  return error ? { table, error } : { table };
}

/** Upstream's check of a printer column's or scale path's JSONPath in a CRD: a simple path starting with `.`. */
export function validateSimpleJSONPath(s: string, path: FieldPath): FieldError[] {
  if (s.length === 0) return [fieldErrors.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldErrors.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}
