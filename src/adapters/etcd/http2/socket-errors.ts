/**
 * Why a connection to etcd failed, as an operator reads it: the URL and what to check, rather than OpenSSL's or
 * libuv's codes alone. These sentences reach the log, a 503's cause and /readyz.
 */

const notSignedByCa = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
]);

/** TLS alerts etcd sends when it does not accept the client certificate (or got none). */
const clientCertRefused = /ALERT_(BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_REQUIRED|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|HANDSHAKE_FAILURE|ACCESS_DENIED)/;

/** Where the connection was when it failed. */
export interface SocketState {
  /** The TLS handshake completed (for this side), and nothing was read from etcd since. */
  silentAfterHandshake?: boolean;
  /** This side presented a client certificate. */
  clientCertificate?: boolean;
}

export function describeSocketError(url: string, err: Error, state: SocketState = {}): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const at = `etcd at ${url}`;
  if (code === 'ECONNREFUSED') return `${at} refused the connection (is etcd running and listening there?)`;
  // With TLS 1.3, etcd judges the client certificate after this side's handshake is done; its alert can be lost
  // when the reset for the unread request it closes on arrives first.
  if (code === 'ECONNRESET' && state.silentAfterHandshake) {
    return state.clientCertificate
      ? `${at} closed the connection after the TLS handshake: it refused this server's client certificate (--etcd-certfile), or its CA is not one etcd trusts`
      : `${at} closed the connection after the TLS handshake: does it require a client certificate (--etcd-certfile, --etcd-keyfile)?`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${url}`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${at} is unreachable (${code})`;
  if (code === 'ECONNRESET') return `${at} reset the connection`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `${at} presented a certificate that does not name that host: ${err.message}`;
  if (notSignedByCa.has(code)) return `${at} presented a certificate that the CA of --etcd-cafile did not sign (${code})`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `${at} presented a certificate that is not valid now (${code})`;
  if (clientCertRefused.test(code)) return `${at} refused this server's client certificate (--etcd-certfile): its CA does not sign it, or none was sent (${code})`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/.test(err.message)) {
    return `${at} does not answer TLS there (an http:// endpoint written as https://?)`;
  }
  return `the connection to ${url} failed: ${err.message}`;
}
