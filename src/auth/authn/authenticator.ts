/** What the HTTP adapter extracts from a request for authentication, and what an authenticator answers. */
import type { UserInfo } from '../../machinery/resource-definition';
import type { PodIdentity } from '../../machinery/pod-identity';

export interface ClientCertificate {
  /** Whether TLS verified the chain against the client CA. */
  verified: boolean;
  /** TLS's reason when it did not verify. */
  error?: string;
  commonName: string;
  organizations: string[];
  /** A pod certificate (KEP-4317): the PodIdentity it carries, and the SHA-256 of its DER (hex). */
  pod?: { identity: PodIdentity; sha256: string };
}

export interface Credentials {
  clientCertificate?: ClientCertificate;
  bearerToken?: string;
  /** The audiences the token must be meant for (a TokenReview's); unset: the server's own (--api-audiences). */
  audiences?: string[];
}

/**
 * A user (with the audiences the credential is good for, when audiences were
 * asked), an error (the credential is bad: 401), or no opinion (undefined).
 */
export type AuthnResult = { user: UserInfo; audiences?: string[] } | { error: string } | undefined;

export interface Authenticator {
  authenticate(c: Credentials): AuthnResult | Promise<AuthnResult>;
}
