import { Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram } from '../../../src/adapters/metrics/series';

describe('bound metric series', () => {
  it('print in the Prometheus text format through a prom-client registry', async () => {
    const registry = new Registry();
    const requests = new FastCounter({ name: 'req_total', help: 'Requests.', labelNames: ['verb', 'code'] }).registerIn(registry);
    const inflight = new FastGauge({ name: 'inflight', help: 'In flight.', labelNames: ['kind'] }).registerIn(registry);
    const latency = new FastHistogram({ name: 'latency_seconds', help: 'Latency.', labelNames: ['verb'], buckets: [0.5, 0.1] }).registerIn(registry);
    const get = requests.bind({ verb: 'GET', code: '200' });
    get.inc();
    get.inc(2);
    expect(requests.bind({ code: '200', verb: 'GET' })).toBe(get); // the same series whatever the key order
    const reads = inflight.bind({ kind: 'readOnly' });
    reads.inc();
    reads.inc();
    reads.dec();
    const h = latency.bind({ verb: 'GET' });
    for (const v of [0.05, 0.1, 0.3, 2]) h.observe(v);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE req_total counter\nreq_total{verb="GET",code="200"} 3');
    expect(text).toContain('# TYPE inflight gauge\ninflight{kind="readOnly"} 1');
    expect(text).toContain(
      [
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{le="0.1",verb="GET"} 2',
        'latency_seconds_bucket{le="0.5",verb="GET"} 3',
        'latency_seconds_bucket{le="+Inf",verb="GET"} 4',
        'latency_seconds_sum{verb="GET"} 2.45',
        'latency_seconds_count{verb="GET"} 4',
      ].join('\n'),
    );
  });

  it('count label sets past the remembered limit without keeping them', () => {
    const c = new FastCounter({ name: 'c', help: 'c', labelNames: ['path'] });
    for (let i = 0; i < 10_050; i++) c.bind({ path: `/p${i}` }).inc();
    expect(c.get().values).toHaveLength(10_000);
  });
});
