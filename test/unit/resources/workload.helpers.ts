/** Builders and message texts shared by the Workload unit tests. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { workloadDefinition as def } from '../../../src/resources/workload';
import { strategyContext } from '../../support/strategy-context';

export type Spec = Record<string, unknown>;
export const defaults = strategyContext();
export const all = strategyContext({ CompositePodGroup: true, PodGroupPreemptionPolicy: true, TopologyAwareWorkloadScheduling: true });
export const wl = (spec: Spec): KObject => ({ metadata: { name: 'w', namespace: 'default' }, spec: structuredClone(spec) });
const texts = (errs: FieldError[] | Promise<FieldError[]>) => (errs as FieldError[]).map((e) => [e.type, errorText(e)]);
export const create = (spec: Spec, ctx = all) => texts(def.strategy.validate(wl(spec), ctx));
export const update = (spec: Spec, old: Spec, ctx = all) => texts(def.strategy.validateUpdate(wl(spec), wl(old), ctx));

export const pg = (name: string, extra: Spec = {}) => ({ name, schedulingPolicy: { basic: {} }, ...extra });
export const gang = (name: string, minCount: number, extra: Spec = {}) => ({ name, schedulingPolicy: { gang: { minCount } }, ...extra });
export const cpg = (name: string, extra: Spec = {}) => ({ name, schedulingPolicy: { gang: { minGroupCount: 1 } }, podGroupTemplates: [pg(`${name}-pg`)], ...extra });
export const pgs = (...templates: unknown[]) => ({ podGroupTemplates: templates });
export const cpgs = (...templates: unknown[]) => ({ compositePodGroupTemplates: templates });

export const DNS_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const DNS_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const PG = 'spec.podGroupTemplates';
export const CPG = 'spec.compositePodGroupTemplates';
