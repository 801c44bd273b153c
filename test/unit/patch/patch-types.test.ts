/** Patch content types and the list the 415 message shows. */
import {
  APPLY_PATCH_YAML,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
  patchTypeOf,
  supportedPatchTypes,
} from '../../../src/machinery/patch/patch-types';
import { errors } from '../../../src/machinery/status';

describe('patch content types', () => {
  it('lists them in upstream order, strategic merge only when allowed', () => {
    expect(supportedPatchTypes(true)).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(supportedPatchTypes(false)).toEqual([JSON_PATCH, MERGE_PATCH, APPLY_PATCH_YAML]);
    expect(errors.unsupportedMediaType(supportedPatchTypes(false)).status.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('maps a Content-Type header to a patch type, dropping parameters only', () => {
    expect(patchTypeOf('application/merge-patch+json; charset=utf-8', false)).toBe(MERGE_PATCH);
    expect(patchTypeOf(STRATEGIC_MERGE_PATCH, true)).toBe(STRATEGIC_MERGE_PATCH);
    expect(patchTypeOf(STRATEGIC_MERGE_PATCH, false)).toBeUndefined();
    expect(patchTypeOf('text/plain', true)).toBeUndefined();
    expect(patchTypeOf('application/json', true)).toBeUndefined();
    expect(patchTypeOf('Application/JSON-Patch+JSON', true)).toBeUndefined();
    expect(patchTypeOf(undefined, true)).toBeUndefined();
  });
});
