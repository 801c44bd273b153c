/** Kubernetes' JSONPath flavour: parsing, evaluation, printer-column tables and selectable-field values. */
export { JSONPath, selectableFieldValue, type JSONPathOptions } from './jsonpath';
export { parseJSONPath } from './parser';
export { customResourceTable, printerColumnsOrDefault, validateSimpleJSONPath, type PrinterColumn, type CustomResourceTable } from './printer-columns';
