"""The Python client's DynamicClient (Debian's python3-kubernetes) and a CustomResourceDefinition.

Creates the CRD through discovery of apiextensions.k8s.io, waits until it is Established, discovers the Widget kind
(client.resources.get(api_version='example.com/v1', kind='Widget')), then creates, gets, lists, patches and deletes a
custom resource. Prints one JSON summary line.
Usage: python3 dynamic-client-crd.py <server URL> <discovery cache file>
"""
import json
import sys
import time

from kubernetes import client as k8s_client
from kubernetes.dynamic import DynamicClient
from kubernetes.dynamic.exceptions import NotFoundError, ResourceNotFoundError

server, cache_file = sys.argv[1], sys.argv[2]
configuration = k8s_client.Configuration()
configuration.host = server
dyn = DynamicClient(k8s_client.ApiClient(configuration), cache_file=cache_file)
namespace = 'python-crd'
result = {}


def until(what, fn, seconds=20.0):
    deadline = time.monotonic() + seconds
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError('timed out waiting for ' + what)
        time.sleep(0.05)


dyn.resources.get(api_version='v1', kind='Namespace').create(body={'metadata': {'name': namespace}})
crds = dyn.resources.get(api_version='apiextensions.k8s.io/v1', kind='CustomResourceDefinition')
created_crd = crds.create(body={
    'apiVersion': 'apiextensions.k8s.io/v1',
    'kind': 'CustomResourceDefinition',
    'metadata': {'name': 'widgets.example.com'},
    'spec': {
        'group': 'example.com',
        'scope': 'Namespaced',
        'names': {'plural': 'widgets', 'singular': 'widget', 'kind': 'Widget', 'shortNames': ['wd']},
        'versions': [{
            'name': 'v1',
            'served': True,
            'storage': True,
            'schema': {'openAPIV3Schema': {
                'type': 'object',
                'properties': {'spec': {'type': 'object', 'properties': {
                    'color': {'type': 'string'},
                    'size': {'type': 'integer', 'default': 3},
                }}},
            }},
        }],
    },
})
result['crd'] = {'apiVersion': created_crd.apiVersion, 'name': created_crd.metadata.name}


def established():
    conditions = crds.get(name='widgets.example.com').status.conditions or []
    return any(c.type == 'Established' and c.status == 'True' for c in conditions)


until('the CRD to be Established', established)


def discover():
    # The discoverer refreshes its cache once when a kind is not in it.
    try:
        return dyn.resources.get(api_version='example.com/v1', kind='Widget')
    except ResourceNotFoundError:
        return None


widgets = until('the Widget kind to be discovered', discover)
result['resource'] = {
    'name': widgets.name,
    'kind': widgets.kind,
    'namespaced': widgets.namespaced,
    'short_names': widgets.short_names,
    'verbs': sorted(widgets.verbs),
}
until('widgets to be served', lambda: widgets.get(namespace=namespace).kind == 'WidgetList')


def widget(name, color, labels=None):
    metadata = {'name': name}
    if labels:
        metadata['labels'] = labels
    return {'apiVersion': 'example.com/v1', 'kind': 'Widget', 'metadata': metadata, 'spec': {'color': color}}


created = widgets.create(body=widget('py-1', 'red', {'via': 'python'}), namespace=namespace)
widgets.create(body=widget('py-2', 'blue'), namespace=namespace)
got = widgets.get(name='py-1', namespace=namespace)
listed = widgets.get(namespace=namespace)
selected = widgets.get(namespace=namespace, label_selector='via=python')
patched = widgets.patch(name='py-1', namespace=namespace, body={'spec': {'size': 5}}, content_type='application/merge-patch+json')
widgets.delete(name='py-1', namespace=namespace)
try:
    widgets.get(name='py-1', namespace=namespace)
    deleted = 'still there'
except NotFoundError as e:
    deleted = e.status
result['custom'] = {
    'created': {'kind': created.kind, 'name': created.metadata.name, 'spec': created.to_dict()['spec']},
    'got': got.metadata.uid == created.metadata.uid,
    'listed': {'kind': listed.kind, 'names': [i.metadata.name for i in listed.items]},
    'selected': [i.metadata.name for i in selected.items],
    'patched': patched.to_dict()['spec'],
    'deleted': deleted,
}
crds.delete(name='widgets.example.com')
print(json.dumps(result))
