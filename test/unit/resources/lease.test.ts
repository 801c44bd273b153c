/** Lease: spec rules with upstream's paths and messages, gated strategy fields, MicroTime handling, table. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { ApiError } from '../../../src/machinery/status';
import { leaseDefinition } from '../../../src/resources/lease';
import { formatMicroTime, parseMicroTime } from '../../../src/machinery/micro-time';
import { fixedNow, strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const cle = strategyContext({ CoordinatedLeaderElection: true });
const strategy = leaseDefinition.strategy;
const lease = (spec?: Record<string, unknown>): KObject => ({ metadata: { name: 'l', namespace: 'default' }, ...(spec ? { spec: structuredClone(spec) } : {}) });
const validate = (obj: KObject) => strategy.validate(obj, ctx) as FieldError[];
const summary = (errs: FieldError[]) => errs.map((e) => [e.field, e.type, errorText(e)]);

describe('Lease validation', () => {
  test('a typical lease is valid', () => {
    expect(validate(lease({ holderIdentity: 'node-1', leaseDurationSeconds: 40, leaseTransitions: 0, renewTime: '2026-01-02T03:04:05.123456Z' }))).toEqual([]);
    expect(validate(lease())).toEqual([]);
  });
  test('leaseDurationSeconds must be positive', () => {
    expect(summary(validate(lease({ leaseDurationSeconds: 0 })))).toEqual([
      ['spec.leaseDurationSeconds', 'FieldValueInvalid', 'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0'],
    ]);
  });
  test('leaseTransitions must be non-negative', () => {
    expect(validate(lease({ leaseTransitions: 0 }))).toEqual([]);
    expect(summary(validate(lease({ leaseTransitions: -1 })))).toEqual([
      ['spec.leaseTransitions', 'FieldValueInvalid', 'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });
  test('strategy is a known name or a qualified name (path repeats "strategy", as upstream)', () => {
    expect(validate(lease({ strategy: 'OldestEmulationVersion' }))).toEqual([]);
    expect(validate(lease({ strategy: 'example.com/mine' }))).toEqual([]);
    expect(summary(validate(lease({ strategy: 'Newest' })))).toEqual([
      ['spec.strategy.strategy', 'FieldValueNotSupported', 'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'],
    ]);
    const errs = validate(lease({ strategy: 'a/b/c' }));
    expect(errs.map((e) => [e.field, e.type])).toEqual([['spec.strategy.strategy', 'FieldValueInvalid']]);
    expect(errorText(errs[0])).toMatch(/^spec\.strategy\.strategy: Invalid value: "a\/b\/c": a qualified name must consist of/);
  });
  test('preferredHolder only with strategy', () => {
    expect(validate(lease({ preferredHolder: 'b', strategy: 'OldestEmulationVersion' }))).toEqual([]);
    expect(validate(lease({ preferredHolder: '' }))).toEqual([]);
    for (const strategyValue of [undefined, '']) {
      const errs = validate(lease({ preferredHolder: 'b', ...(strategyValue === undefined ? {} : { strategy: strategyValue }) }));
      expect(summary(errs).pop()).toEqual([
        'spec.preferredHolder',
        'FieldValueForbidden',
        'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
      ]);
    }
  });
  test('updates are validated like creates; nothing is immutable', () => {
    const old = lease({ holderIdentity: 'a', leaseDurationSeconds: 10 });
    expect(strategy.validateUpdate(lease({ holderIdentity: 'b', leaseDurationSeconds: 15 }), old, ctx)).toEqual([]);
    expect((strategy.validateUpdate(lease({ leaseDurationSeconds: -5 }), old, ctx) as FieldError[]).map((e) => e.field)).toEqual(['spec.leaseDurationSeconds']);
  });
});

describe('Lease CoordinatedLeaderElection gate', () => {
  const gated = { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' };
  test('create drops strategy and preferredHolder while the gate is off', () => {
    const obj = lease(gated);
    strategy.prepareForCreate!(obj, ctx);
    expect(obj.spec).toEqual({ holderIdentity: 'a' });
    const on = lease(gated);
    strategy.prepareForCreate!(on, cle);
    expect(on.spec).toEqual(gated);
  });
  test('update keeps each field only if the stored lease already had it', () => {
    const obj = lease(gated);
    strategy.prepareForUpdate!(obj, lease({ strategy: 'OldestEmulationVersion' }), ctx);
    expect(obj.spec).toEqual({ holderIdentity: 'a', strategy: 'OldestEmulationVersion' });
    const fresh = lease(gated);
    strategy.prepareForUpdate!(fresh, lease({}), ctx);
    expect(fresh.spec).toEqual({ holderIdentity: 'a' });
    const on = lease(gated);
    strategy.prepareForUpdate!(on, lease({}), cle);
    expect(on.spec).toEqual(gated);
  });
});

describe('Lease MicroTime fields', () => {
  const canonical = (v: string) => {
    const obj = lease({ renewTime: v, acquireTime: v });
    strategy.applyDefaults!(obj, ctx);
    strategy.canonicalize!(obj);
    return (obj.spec as any).renewTime;
  };
  test('microseconds are kept and always written with six digits in UTC', () => {
    expect(canonical('2026-01-02T03:04:05.123456Z')).toBe('2026-01-02T03:04:05.123456Z');
    expect(canonical('2026-01-02T03:04:05.1Z')).toBe('2026-01-02T03:04:05.100000Z');
    expect(canonical('2026-01-02T03:04:05.123456789Z')).toBe('2026-01-02T03:04:05.123456Z');
    expect(canonical('2026-01-02T03:04:05Z')).toBe('2026-01-02T03:04:05.000000Z');
    expect(canonical('2026-01-02T04:04:05.000001+01:00')).toBe('2026-01-02T03:04:05.000001Z');
    expect(canonical('2026-01-01T23:30:00.5-04:30')).toBe('2026-01-02T04:00:00.500000Z');
  });
  test('spec is always present and null times are dropped', () => {
    const obj = lease();
    strategy.applyDefaults!(obj, ctx);
    expect(obj.spec).toEqual({});
    const nulls = lease({ renewTime: null, holderIdentity: 'x' });
    strategy.applyDefaults!(nulls, ctx);
    expect(nulls.spec).toEqual({ holderIdentity: 'x' });
  });
  test('an unparsable time fails decoding with 400 and Go\'s wording', () => {
    const cases: Array<[string, string]> = [
      ['yesterday', 'parsing time "yesterday" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "yesterday" as "2006"'],
      ['2026-01-02 03:04:05Z', 'parsing time "2026-01-02 03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse " 03:04:05Z" as "T"'],
      ['2026-13-02T03:04:05Z', 'parsing time "2026-13-02T03:04:05Z": month out of range'],
      ['2026-02-30T03:04:05Z', 'parsing time "2026-02-30T03:04:05Z": day out of range'],
      ['2026-01-02T03:04:05', 'parsing time "2026-01-02T03:04:05" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "" as "Z07:00"'],
      ['2026-01-02T03:04:05Zjunk', 'parsing time "2026-01-02T03:04:05Zjunk": extra text: "junk"'],
    ];
    for (const [value, message] of cases) {
      let caught: unknown;
      try {
        strategy.applyDefaults!(lease({ acquireTime: value }), ctx);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ApiError);
      expect((caught as ApiError).status).toMatchObject({ code: 400, reason: 'BadRequest', message: `Lease in version "v1" cannot be handled as a Lease: ${message}` });
    }
  });
  test('parse and format round trip, including leap days and early years', () => {
    for (const v of ['2024-02-29T23:59:59.999999Z', '0001-01-01T00:00:00.000000Z', '0099-12-31T12:00:00.000001Z']) {
      expect(formatMicroTime(parseMicroTime(v))).toBe(v);
    }
  });
});

describe('Lease table and definition', () => {
  test('Name, Holder, Age', () => {
    const table = leaseDefinition.table!;
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Holder', 'Age']);
    const obj = lease({ holderIdentity: 'node-1' });
    obj.metadata.creationTimestamp = new Date(fixedNow.getTime() - 10_000).toISOString();
    expect(table.cells(obj, fixedNow)).toEqual(['l', 'node-1', '10s']);
    expect(table.cells(lease(), fixedNow)).toEqual(['l', '', '<unknown>']);
  });
  test('flags', () => {
    expect(leaseDefinition).toMatchObject({
      group: 'coordination.svc.io',
      version: 'v1',
      plural: 'leases',
      namespaced: true,
      shortNames: [],
      categories: [],
      fieldSelectors: {},
      usesGeneration: false,
      allowCreateOnUpdate: true,
      allowUnconditionalUpdate: false,
    });
    expect(leaseDefinition.validateName('UPPER', false)).toHaveLength(1);
  });
});
