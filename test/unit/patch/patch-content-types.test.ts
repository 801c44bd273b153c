/** Patch content types: the one list, the 415 message it makes, and how a Content-Type header is matched. */
import { patchContentTypes, patchTypeOf } from '../../../src/registry/request';
import { errors } from '../../../src/machinery/status';

describe('patch content types', () => {
  it('lists them in upstream order, strategic merge only when allowed', () => {
    expect(patchContentTypes(true)).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(errors.unsupportedMediaType(patchContentTypes(false)).status.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('maps a Content-Type header to a patch type, dropping parameters only', () => {
    expect(patchTypeOf('application/merge-patch+json; charset=utf-8', false)).toBe('merge');
    expect(patchTypeOf('application/strategic-merge-patch+json', true)).toBe('strategic');
    expect(patchTypeOf('application/strategic-merge-patch+json', false)).toBeUndefined();
    expect(patchTypeOf('application/apply-patch+yaml', false)).toBe('apply');
    expect(patchTypeOf('text/plain', true)).toBeUndefined();
    expect(patchTypeOf('application/json', true)).toBeUndefined();
    expect(patchTypeOf('Application/JSON-Patch+JSON', true)).toBeUndefined();
    expect(patchTypeOf(undefined, true)).toBeUndefined();
  });
});
