/**
 * The admission plugins this server has, by upstream's names and in
 * upstream's order, and the choice --enable-admission-plugins and
 * --disable-admission-plugins make among them. Unlike upstream,
 * NamespaceAutoProvision is on by default, so that clients that never
 * create namespaces keep working; NamespaceExists is off. The webhook and
 * policy plugins are on, as upstream's are: without configurations or
 * policies they cost a cached list per write.
 */
export const ADMISSION_PLUGIN_ORDER = [
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
] as const;
export type AdmissionPluginName = (typeof ADMISSION_PLUGIN_ORDER)[number];

export const DEFAULT_ADMISSION_PLUGINS: readonly AdmissionPluginName[] = [
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
];

export class AdmissionConfigError extends Error {}

/** The enabled plugins in running order; throws AdmissionConfigError on unknown or conflicting names. */
export function selectAdmissionPlugins(enable: string[], disable: string[]): AdmissionPluginName[] {
  const known = new Set<string>(ADMISSION_PLUGIN_ORDER);
  const problems: string[] = [];
  for (const n of enable) if (!known.has(n)) problems.push(`enable-admission-plugins plugin "${n}" is unknown`);
  for (const n of disable) if (!known.has(n)) problems.push(`disable-admission-plugins plugin "${n}" is unknown`);
  const both = [...new Set(enable)].filter((n) => disable.includes(n)).sort();
  if (both.length) problems.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  if (problems.length) throw new AdmissionConfigError(`${problems.join('; ')} (known plugins: ${ADMISSION_PLUGIN_ORDER.join(', ')})`);
  const on = new Set<string>([...DEFAULT_ADMISSION_PLUGINS, ...enable]);
  for (const n of disable) on.delete(n);
  return ADMISSION_PLUGIN_ORDER.filter((n) => on.has(n));
}
