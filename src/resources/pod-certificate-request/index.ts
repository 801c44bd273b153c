/** PodCertificateRequest: certificates.svc.io/v1, namespaced, with /status. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { PodCertificateRequest } from './pod-certificate-request.types';
import { PcrObject, validatePcrCreate, validatePcrUpdate } from './pod-certificate-request.validation';

export type { PcrSpec } from './pod-certificate-request.validation';
import { validatePcrStatusUpdate } from './pod-certificate-request.status';
import { applyPcrDefaults, canonicalizePcr, preparePcrForCreate, preparePcrStatusUpdate } from './pod-certificate-request.strategy';

const specField = (field: 'signerName' | 'podName' | 'nodeName') => (obj: PcrObject) => obj.spec?.[field] ?? '';

export const podCertificateRequestDefinition: ResourceDefinition = {
  group: 'certificates.svc.io',
  version: 'v1',
  kind: 'PodCertificateRequest',
  listKind: 'PodCertificateRequestList',
  plural: 'podcertificaterequests',
  singular: 'podcertificaterequest',
  shortNames: [],
  categories: [],
  namespaced: true,
  schemaRoot: PodCertificateRequest,
  strategy: {
    prepareForCreate: preparePcrForCreate,
    applyDefaults: applyPcrDefaults,
    validate: validatePcrCreate,
    validateUpdate: validatePcrUpdate,
    canonicalize: canonicalizePcr,
  },
  subresources: {
    status: {
      verbs: ['get', 'patch', 'update'],
      prepareForUpdate: preparePcrStatusUpdate,
      validateUpdate: validatePcrStatusUpdate,
      // A newer kind: upstream's PCR status strategy calls ResetObjectMetaForStatus.
      resetObjectMeta: true,
    },
  },
  fieldSelectors: {
    'spec.signerName': specField('signerName'),
    'spec.podName': specField('podName'),
    'spec.nodeName': specField('nodeName'),
  },
  usesGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  validateName: nameIsDNSSubdomain,
};
