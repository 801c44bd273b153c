/** Shared pieces of Table output: the Name and Age columns and upstream's human-readable durations. */
import type { ColumnDefinition } from './resource-definition';

export const nameColumn: ColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Cannot be updated.',
  priority: 0,
};

export const ageColumn: ColumnDefinition = {
  name: 'Age',
  type: 'string',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
};

/** Like upstream's duration.HumanDuration: 45s, 5m10s, 3h, 2d4h, 400d, 3y... */
export function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 60 * 2) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 60 * 3) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 24 * 8) return h % 24 === 0 ? `${Math.floor(h / 24)}d` : `${Math.floor(h / 24)}d${h % 24}h`;
  if (h < 24 * 365 * 2) return `${Math.floor(h / 24)}d`;
  if (h < 24 * 365 * 8) {
    const y = Math.floor(h / 24 / 365);
    const d = Math.floor(h / 24) % 365;
    return d === 0 ? `${y}y` : `${y}y${d}d`;
  }
  return `${Math.floor(h / 24 / 365)}y`;
}

export function age(creationTimestamp: string | null | undefined, now: Date): string {
  if (!creationTimestamp) return '<unknown>';
  return humanDuration(now.getTime() - Date.parse(creationTimestamp));
}
