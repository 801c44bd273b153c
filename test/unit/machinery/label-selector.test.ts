import { errorText } from '../../../src/machinery/field-errors';
import {
  labelSelectorAsSelector,
  labelSelectorHasInvalidLabelValue,
  validateLabelSelector,
} from '../../../src/machinery/label-selector';
import { LabelSelectorError } from '../../../src/machinery/labels';
import { LABEL_VALUE_MSG, QNAME_NAME_MSG } from './messages';

describe('validateLabelSelector', () => {
  const bad = {
    matchLabels: { a_: 'x y' },
    matchExpressions: [
      { key: 'k', operator: 'In' },
      { key: 'k', operator: 'Exists', values: ['v'] },
      { key: 'B_', operator: 'Foo', values: ['a b'] },
      { key: 'ok', operator: 'NotIn', values: ['x'] },
    ],
  };

  it('reports each problem at its path', () => {
    expect(validateLabelSelector(bad, 'spec.selector').map(errorText)).toEqual([
      `spec.selector.matchLabels: Invalid value: "a_": ${QNAME_NAME_MSG}`,
      `spec.selector.matchLabels: Invalid value: "x y": ${LABEL_VALUE_MSG}`,
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: Invalid value: "Foo": not a valid selector operator',
      `spec.selector.matchExpressions[2].key: Invalid value: "B_": ${QNAME_NAME_MSG}`,
      `spec.selector.matchExpressions[2].values[0]: Invalid value: "a b": ${LABEL_VALUE_MSG}`,
    ]);
  });

  it('honours the options', () => {
    const errs = validateLabelSelector(bad, 'spec.selector', {
      allowInvalidLabelValueInSelector: true,
      allowUnknownOperatorInRequirement: true,
    }).map((e) => e.field);
    expect(errs).toEqual([
      'spec.selector.matchLabels',
      'spec.selector.matchLabels',
      'spec.selector.matchExpressions[0].values',
      'spec.selector.matchExpressions[1].values',
      'spec.selector.matchExpressions[2].key',
    ]);
  });

  it('nil and empty selectors are valid', () => {
    expect(validateLabelSelector(null, 'spec.selector')).toEqual([]);
    expect(validateLabelSelector({}, 'spec.selector')).toEqual([]);
  });

  it('detects stored invalid values', () => {
    expect(labelSelectorHasInvalidLabelValue(bad)).toBe(true);
    expect(labelSelectorHasInvalidLabelValue({ matchLabels: { a: 'x y' } })).toBe(false);
    expect(labelSelectorHasInvalidLabelValue(undefined)).toBe(false);
  });
});

describe('labelSelectorAsSelector', () => {
  it('nil selects nothing, empty selects everything', () => {
    expect(labelSelectorAsSelector(undefined).matches({})).toBe(false);
    expect(labelSelectorAsSelector({}).matches({ any: 'x' })).toBe(true);
    expect(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }).isEmpty()).toBe(true);
  });

  it('combines matchLabels and matchExpressions', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { c: 'd' },
      matchExpressions: [
        { key: 'a', operator: 'NotIn', values: ['x'] },
        { key: 'e', operator: 'DoesNotExist' },
        { key: 'b', operator: 'Exists' },
      ],
    });
    expect(s.toString()).toBe('a notin (x),b,c=d,!e');
    expect(s.matches({ b: '', c: 'd' })).toBe(true);
    expect(s.matches({ b: '', c: 'd', e: '1' })).toBe(false);
  });

  it('throws upstream errors', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).toThrow(
      new LabelSelectorError('"Foo" is not a valid label selector operator'),
    );
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] })).toThrow(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
    expect(() => labelSelectorAsSelector({ matchLabels: { a: 'b c' } })).toThrow(`values[0][a]: Invalid value: "b c": ${LABEL_VALUE_MSG}`);
  });
});
