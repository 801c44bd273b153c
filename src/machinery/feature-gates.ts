/** The spec's feature gates (section 9) with their defaults. */

export const knownGates = {
  // alpha: off
  CoordinatedLeaderElection: false,
  ShardedListAndWatch: false,
  CompositePodGroup: false,
  PodGroupPreemptionPolicy: false,
  TopologyAwareWorkloadScheduling: false,
  // beta: on
  VolumeLimitScaling: true,
  MutableCSINodeAllocatableCount: true,
  DRAWorkloadResourceClaims: true,
  // the Workload API itself
  GenericWorkload: true,
} as const;

export type GateName = keyof typeof knownGates;

export class FeatureGates {
  private readonly values: Record<GateName, boolean>;
  constructor(overrides: Partial<Record<string, boolean>> = {}) {
    this.values = { ...knownGates };
    for (const [name, value] of Object.entries(overrides)) {
      if (!(name in knownGates)) {
        throw new Error(`unrecognized feature gate: ${name} (known gates: ${Object.keys(knownGates).sort().join(', ')})`);
      }
      this.values[name as GateName] = Boolean(value);
    }
  }
  enabled(name: GateName | string): boolean {
    return this.values[name as GateName] === true;
  }

  /** Parses `Name=true,Other=false` as kube-apiserver's --feature-gates does. */
  static parse(flag: string): FeatureGates {
    const overrides: Record<string, boolean> = {};
    for (const part of flag.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [name, raw] = part.split('=');
      if (raw === undefined || !/^(true|false)$/i.test(raw.trim())) {
        throw new Error(`invalid value of ${part}, expected Name=true|false`);
      }
      overrides[name.trim()] = raw.trim().toLowerCase() === 'true';
    }
    return new FeatureGates(overrides);
  }
}
