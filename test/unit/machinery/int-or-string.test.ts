import { errorText } from '../../../src/machinery/field-errors';
import {
  isNotMoreThan100Percent,
  isValidPercent,
  validateIntOrPercent,
  validatePositiveIntOrPercent,
} from '../../../src/machinery/validation/int-or-string';

const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const check = (v: unknown, path = 'spec.minAvailable') => validateIntOrPercent(v, path).map(errorText);

describe('PDB int-or-percent', () => {
  it('accepts non-negative integers and percentages up to 100%', () => {
    for (const v of [0, 3, '0%', '50%', '100%', '007%']) expect(check(v)).toEqual([]);
  });

  it('rejects negative integers', () => {
    expect(check(-1, 'spec.maxUnavailable')).toEqual(['spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0']);
  });

  it('rejects strings that are not percentages, printing the IntOrString as upstream', () => {
    expect(isValidPercent('5')).toEqual([PERCENT_MSG]);
    expect(check('50')).toEqual([`spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50"}: ${PERCENT_MSG}`]);
    expect(check('-5%')).toEqual([`spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"-5%"}: ${PERCENT_MSG}`]);
    expect(check('')).toEqual([`spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:""}: ${PERCENT_MSG}`]);
  });

  it('rejects percentages above 100%', () => {
    expect(check('101%')).toEqual([
      'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%',
    ]);
    expect(isNotMoreThan100Percent('99999999999999999999999%', 'x')).toHaveLength(1);
    expect(isNotMoreThan100Percent(500, 'x')).toEqual([]);
  });

  it('rejects other types', () => {
    expect(validatePositiveIntOrPercent(1.5, 'spec.minAvailable').map(errorText)).toEqual([
      "spec.minAvailable: Invalid value: 1.5: must be an integer or percentage (e.g '5%%')",
    ]);
  });
});
