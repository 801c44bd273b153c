/**
 * The 409 of a conflicting apply, worded as upstream: one cause per field
 * and manager, and a message grouping paths by manager (clients such as
 * kubectl show it verbatim).
 */
import type { StatusCause } from '../status';
import { parseIdentifier } from './entries';
import { goQuote } from './go-values';
import { pathString } from './path';
import type { Conflict } from './updater';

/** `"name"`, plus ` with subresource "status"`, plus ` using v1` for Update managers. */
export function describeManager(id: string): string {
  let info;
  try {
    info = parseIdentifier(id);
  } catch {
    return goQuote(id);
  }
  let s = goQuote(info.manager ?? '');
  if (info.subresource) s += ` with subresource ${goQuote(info.subresource)}`;
  if (info.operation === 'Update') s += ` using ${info.apiVersion ?? ''}`;
  return s;
}

export function conflictCauses(conflicts: Conflict[]): StatusCause[] {
  return conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.manager)}`, field: pathString(c.path) }));
}

export function conflictMessage(conflicts: Conflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${describeManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${describeManager(m)}:`);
    for (const p of byManager.get(m)!) lines.push(`- ${p}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
