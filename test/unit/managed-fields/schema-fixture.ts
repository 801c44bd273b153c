/** A small schema with every list and map flavour server-side apply distinguishes. */
import type { Schema } from '../../../src/machinery/schema/schema';

export const testSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        namespace: { type: 'string' },
        uid: { type: 'string' },
        resourceVersion: { type: 'string' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        annotations: { type: 'object', additionalProperties: { type: 'string' } },
        finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      },
    },
    data: { type: 'object', additionalProperties: { type: 'string' } },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        paused: { type: 'boolean' },
        args: { type: 'array', items: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' }, name: { type: 'string' } } },
        },
        selector: {
          type: 'object',
          'x-kubernetes-map-type': 'atomic',
          properties: { matchLabels: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
};
