/** YAML bodies whose aliases go too far are refused as go-yaml refuses them, before anything walks them. */
import { decodeYaml } from '../../../src/adapters/http/media';
import { ApiError } from '../../../src/machinery/status';
import { laughs } from '../../support/yaml-bombs';

const decode = (text: string) => decodeYaml(Buffer.from(text));

function refusal(text: string): { code: number; message: string } {
  try {
    decode(text);
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, message: e.status.message ?? '' };
    throw e;
  }
  throw new Error('decoded');
}

describe('aliases in YAML bodies', () => {
  it('accepts what go-yaml accepts, and refuses more than 99% of a small document coming from aliases', () => {
    // go-yaml v3.0.4 decodes the first and refuses the second.
    expect(decode(laughs(3, 10)).object).toMatchObject({ a2: expect.any(Array) });
    expect(refusal(laughs(4, 10))).toEqual({ code: 400, message: 'error decoding YAML: yaml: document contains excessive aliasing' });
  });

  it('refuses a billion laughs (387 million scalars) after a few thousand steps', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  labels:\n${laughs(9, 9, '    ')}`;
    expect(refusal(text).message).toBe('error decoding YAML: yaml: document contains excessive aliasing');
  });

  it('refuses an anchor whose value contains itself, naming it', () => {
    expect(refusal('a: &x {b: *x}\n')).toEqual({ code: 400, message: "error decoding YAML: yaml: anchor 'x' value contains itself" });
    expect(refusal('metadata:\n  name: n\nlist: &loop\n- 1\n- *loop\n').message).toBe("error decoding YAML: yaml: anchor 'loop' value contains itself");
  });

  it('keeps ordinary aliases, also with duplicate keys', () => {
    expect(decode('a: &x {k: v}\nb: *x\nc: *x\n').object).toEqual({ a: { k: 'v' }, b: { k: 'v' }, c: { k: 'v' } });
    const dup = decode('a: &x [1, 2]\nb: *x\nb: *x\n');
    expect(dup.object).toEqual({ a: [1, 2], b: [1, 2] });
    expect(dup.duplicateFields).toEqual(['line 3: key "b" already set in map']);
  });
});
