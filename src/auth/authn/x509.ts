/**
 * Client certificates: CN is the user, each O a group (upstream's
 * CommonNameUserConversion); and pod certificates, whose PodIdentity makes
 * them the pod's service account, as long as that account exists with the
 * same UID (as a bound token).
 */
import { serviceAccountGroups, serviceAccountUsername } from '../user';
import type { UserInfo } from '../../machinery/resource-definition';
import type { Authenticator, AuthnResult, ClientCertificate, Credentials } from './authenticator';
import type { UidLookup } from './service-account';

/** The user of each certificate (read once per connection): one object for all of a connection's requests. */
const certificateUsers = new WeakMap<ClientCertificate, UserInfo>();

export const x509Authenticator: Authenticator = {
  authenticate({ clientCertificate: cert }: Credentials): AuthnResult {
    if (!cert || cert.pod) return undefined;
    if (!cert.verified) return { error: `x509: ${cert.error ?? 'certificate signed by unknown authority'}` };
    if (!cert.commonName) return { error: 'x509: certificate has no common name' };
    let user = certificateUsers.get(cert);
    if (!user) certificateUsers.set(cert, (user = { username: cert.commonName, groups: [...cert.organizations] }));
    return { user };
  },
};

/** Upstream's extra keys for a pod's identity (the same as on bound service-account tokens). */
const extraKey = (k: string) => `authentication.kubernetes.io/${k}`;

export function podCertificateAuthenticator(lookup: UidLookup): Authenticator {
  return {
    authenticate({ clientCertificate: cert }: Credentials): AuthnResult {
      if (!cert?.pod) return undefined;
      if (!cert.verified) return { error: `x509: ${cert.error ?? 'certificate signed by unknown authority'}` };
      const id = cert.pod.identity;
      const uid = lookup.uidOf('v1', 'ServiceAccount', id.namespace, id.serviceAccountName);
      if (!uid) return { error: `pod certificate: serviceaccounts "${id.serviceAccountName}" not found` };
      if (uid !== id.serviceAccountUID) return { error: `pod certificate: the ServiceAccount's UID (${uid}) does not match the certificate's (${id.serviceAccountUID})` };
      return {
        user: {
          username: serviceAccountUsername(id.namespace, id.serviceAccountName),
          uid,
          groups: serviceAccountGroups(id.namespace),
          extra: {
            [extraKey('pod-name')]: [id.podName],
            [extraKey('pod-uid')]: [id.podUID],
            [extraKey('node-name')]: [id.nodeName],
            [extraKey('node-uid')]: [id.nodeUID],
            [extraKey('credential-id')]: [`X509SHA256=${cert.pod.sha256}`],
          },
        },
      };
    },
  };
}
