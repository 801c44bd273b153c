/** The PATCH content types and which ones an endpoint offers (upstream installer.go order). */

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH_YAML = 'application/apply-patch+yaml';

export type PatchContentType = typeof JSON_PATCH | typeof MERGE_PATCH | typeof STRATEGIC_MERGE_PATCH | typeof APPLY_PATCH_YAML;

/** In the order the 415 message lists them; strategic merge only for built-in-shaped kinds. */
export function supportedPatchTypes(strategicAllowed: boolean): PatchContentType[] {
  return strategicAllowed
    ? [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH_YAML]
    : [JSON_PATCH, MERGE_PATCH, APPLY_PATCH_YAML];
}

/**
 * The patch type a Content-Type header names, or undefined (→ 415). Like
 * upstream, only what follows the first `;` is dropped: matching is exact and
 * case-sensitive, so stray spaces or capitals are not accepted.
 */
export function patchTypeOf(contentType: string | undefined, strategicAllowed: boolean): PatchContentType | undefined {
  if (!contentType) return undefined;
  const semi = contentType.indexOf(';');
  const base = semi > 0 ? contentType.slice(0, semi) : contentType;
  return supportedPatchTypes(strategicAllowed).find((t) => t === base);
}
