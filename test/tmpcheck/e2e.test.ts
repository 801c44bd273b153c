import { startTestServer, TestServer } from '../support/test-server';

async function call(s: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json', accept?: string) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (accept) headers.accept = accept;
  const res = await fetch(s.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

test('pdb lifecycle', async () => {
  const s = await startTestServer('lmdb', {});
  try {
    const c = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const cr = await call(s, 'POST', c, { metadata: { name: 'p' }, spec: { minAvailable: 1 }, status: { disruptionsAllowed: 5 } });
    console.log('create', JSON.stringify(cr.json));
    const p1 = await call(s, 'PATCH', `${c}/p`, { spec: { minAvailable: 2, selector: { matchLabels: { a: 'b' } } } }, 'application/strategic-merge-patch+json');
    console.log('gen after spec patch', p1.json.metadata.generation);
    const p2 = await call(s, 'PATCH', `${c}/p`, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json');
    console.log('gen after label patch', p2.json.metadata.generation);
    const p3 = await call(s, 'PATCH', `${c}/p`, { spec: { selector: { matchExpressions: [{ key: 'k', operator: 'Exists' }] } } }, 'application/strategic-merge-patch+json');
    console.log('selector after smp (replace)', JSON.stringify(p3.json.spec.selector));
    const cond = (type: string, status: string) => ({ type, status, reason: 'SufficientPods', message: '', lastTransitionTime: '2026-01-02T03:04:05Z' });
    const s1 = await call(s, 'PATCH', `${c}/p/status`, { status: { observedGeneration: 3, conditions: [cond('DisruptionAllowed', 'True'), cond('Other', 'True')] } }, 'application/merge-patch+json');
    console.log('status1', s1.status, JSON.stringify(s1.json.status));
    const s2 = await call(s, 'PATCH', `${c}/p/status`, { status: { conditions: [cond('DisruptionAllowed', 'False')] } }, 'application/strategic-merge-patch+json');
    console.log('status2', s2.status, JSON.stringify(s2.json.status));
    const nov = await call(s, 'PUT', `${c}/p`, { metadata: { name: 'p' }, spec: {} });
    console.log('put without rv', nov.status, nov.json.message);
    const table = await call(s, 'GET', c, undefined, 'application/json', 'application/json;as=Table;g=meta.k8s.io;v=v1');
    console.log('table', JSON.stringify(table.json.rows?.map((r: { cells: unknown[] }) => r.cells)));
  } finally {
    await s.close();
  }
});

test('workload gates', async () => {
  const off = await startTestServer('lmdb', { GenericWorkload: false });
  try {
    const r = await call(off, 'GET', '/apis/scheduling.svc.io/v1beta1/namespaces/default/workloads');
    console.log('gate off', r.status);
  } finally {
    await off.close();
  }
  const s = await startTestServer('lmdb', { CompositePodGroup: true });
  try {
    const c = '/apis/scheduling.svc.io/v1beta1/namespaces/default/workloads';
    const cr = await call(s, 'POST', c, {
      metadata: { name: 'w' },
      spec: { compositePodGroupTemplates: [{ name: 'r', schedulingPolicy: { basic: {} }, podGroupTemplates: [{ name: 'a', schedulingPolicy: { basic: {} }, preemptionPolicy: 'Never' }] }] },
    });
    console.log('composite create', cr.status, JSON.stringify(cr.json.spec ?? cr.json.message));
    const nov = await call(s, 'PUT', `${c}/w`, { metadata: { name: 'w' }, spec: cr.json.spec });
    console.log('put without rv', nov.status);
    const bad = await call(s, 'PATCH', `${c}/w`, { spec: { compositePodGroupTemplates: [] } }, 'application/merge-patch+json');
    console.log('clear composite', bad.status, bad.json.message);
  } finally {
    await s.close();
  }
});
