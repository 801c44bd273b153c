/** Client certificates: CN is the user, each O a group (upstream's CommonNameUserConversion). */
import type { Authenticator, AuthnResult, Credentials } from './authenticator';

export const x509Authenticator: Authenticator = {
  authenticate({ clientCertificate: cert }: Credentials): AuthnResult {
    if (!cert) return undefined;
    if (!cert.verified) return { error: `x509: ${cert.error ?? 'certificate signed by unknown authority'}` };
    if (!cert.commonName) return { error: 'x509: certificate has no common name' };
    return { user: { username: cert.commonName, groups: [...cert.organizations] } };
  },
};
