/**
 * Counters, gauges and histograms whose label sets are bound once and then
 * updated as plain numbers: prom-client's bound children hash their labels
 * again on every call, which a busy server pays per request. They register in
 * a prom-client Registry like its own metrics (name, help, type, get, reset),
 * so /metrics prints them in the same exposition format.
 */
import type { Metric, Registry } from 'prom-client';

type Labels = Record<string, string>;

/** One sample as prom-client's registry prints it. */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

interface Snapshot {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: Sample[];
}

interface Definition {
  name: string;
  help: string;
  labelNames: readonly string[];
}

/** Label sets past this many are still counted, but not remembered for reuse (unknown paths could grow it). */
const maxBound = 10_000;

abstract class Series<Child extends { labels: Labels }> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  abstract readonly type: 'counter' | 'gauge' | 'histogram';
  /** Aggregation across cluster workers, as prom-client's metrics declare it (unused here). */
  readonly aggregator: 'sum' = 'sum';
  protected readonly children = new Map<string, Child>();

  constructor(def: Definition) {
    this.name = def.name;
    this.help = def.help;
    this.labelNames = def.labelNames;
  }

  protected abstract create(labels: Labels): Child;

  /** The series of one label set; keep it and update it directly. */
  bind(labels: Labels): Child {
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let child = this.children.get(key);
    if (!child) {
      const own: Labels = {};
      for (const n of this.labelNames) own[n] = labels[n] ?? '';
      child = this.create(own);
      if (this.children.size < maxBound) this.children.set(key, child);
    }
    return child;
  }

  reset(): void {
    this.children.clear();
  }

  /** Registers in prom-client's registry, whose typings only know its own metric classes. */
  registerIn(registry: Registry): this {
    registry.registerMetric(this as unknown as Metric);
    return this;
  }

  protected snapshot(values: Sample[]): Snapshot {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  abstract get(): Snapshot;
}

export class CounterChild {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(by = 1): void {
    this.value += by;
  }
}

/** Series of one number per label set. */
abstract class ScalarSeries<Child extends CounterChild> extends Series<Child> {
  get() {
    return this.snapshot([...this.children.values()].map((c) => ({ labels: c.labels, value: c.value })));
  }
}

export class FastCounter extends ScalarSeries<CounterChild> {
  readonly type = 'counter' as const;
  protected create(labels: Labels) {
    return new CounterChild(labels);
  }
}

export class GaugeChild extends CounterChild {
  dec(by = 1): void {
    this.value -= by;
  }
  set(v: number): void {
    this.value = v;
  }
}

export class FastGauge extends ScalarSeries<GaugeChild> {
  readonly type = 'gauge' as const;
  protected create(labels: Labels) {
    return new GaugeChild(labels);
  }
}

export class HistogramChild {
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(readonly labels: Labels, private readonly upper: readonly number[]) {
    this.counts = new Float64Array(upper.length + 1);
  }
  observe(v: number): void {
    let i = 0;
    while (i < this.upper.length && v > this.upper[i]) i++;
    this.counts[i]++;
    this.sum += v;
    this.count++;
  }
}

export class FastHistogram extends Series<HistogramChild> {
  readonly type = 'histogram' as const;
  readonly upper: readonly number[];
  constructor(def: Definition & { buckets: readonly number[] }) {
    super(def);
    this.upper = [...def.buckets].sort((a, b) => a - b);
  }
  protected create(labels: Labels) {
    return new HistogramChild(labels, this.upper);
  }
  get() {
    const values: Sample[] = [];
    for (const c of this.children.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.upper.length; i++) {
        cumulative += c.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { le: i < this.upper.length ? this.upper[i] : '+Inf', ...c.labels }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: c.labels, value: c.sum });
      values.push({ metricName: `${this.name}_count`, labels: c.labels, value: c.count });
    }
    return this.snapshot(values);
  }
}
