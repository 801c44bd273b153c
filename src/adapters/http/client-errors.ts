/**
 * Errors Express and body-parser raise for a client's request (unreadable
 * body, unknown Content-Encoding, malformed escapes in the URL), turned into
 * the 4xx Status they deserve instead of an internal error.
 */
import { ApiError, errors } from '../../machinery/status';
import { maxBodyBytes } from './body';

interface HttpError {
  status?: number;
  type?: string;
  code?: string;
  message?: string;
  encoding?: string;
  charset?: string;
}


/** The Status for an error Express or body-parser raised about the request, undefined when it is not one. */
export function clientRequestError(err: unknown, contentEncoding: string | undefined): ApiError | undefined {
  const e = err as HttpError;
  if (err instanceof URIError && e.status === 400) return errors.badRequest(badEscapeMessage(e.message ?? ''));
  switch (e?.type) {
    case 'entity.too.large':
      return errors.requestEntityTooLarge(`limit is ${maxBodyBytes}`);
    case 'encoding.unsupported':
      return errors.unsupportedContentEncoding(e.encoding ?? contentEncoding ?? '');
    case 'charset.unsupported':
      return errors.unsupportedMediaType([`application/json; charset=utf-8`]);
    case 'request.aborted':
    case 'request.size.invalid':
      return errors.badRequest(e.message ?? 'the request body was cut short');
    default:
      break;
  }
  if (e?.status === 400 && contentEncoding && contentEncoding !== 'identity') {
    // A zlib or brotli failure while reading the body: it was not what its Content-Encoding says.
    return errors.badRequest(`the request body is not valid ${contentEncoding} data (Content-Encoding: ${contentEncoding}): ${e.message}`);
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return errors.badRequest(e.message ?? 'bad request');
  return undefined;
}

/** The 400 for a path segment that does not percent-decode. */
export function badEscape(segment: string): ApiError {
  return errors.badRequest(badEscapeMessage(segment));
}

/** Go's url.EscapeError wording for the first malformed escape in a path segment. */
function badEscapeMessage(message: string): string {
  const param = /^Failed to decode param '(.*)'$/s.exec(message)?.[1] ?? message;
  const bad = /%(?![0-9A-Fa-f]{2}).{0,2}/s.exec(param)?.[0];
  return bad ? `invalid URL escape ${JSON.stringify(bad)}` : `invalid UTF-8 in URL path segment ${JSON.stringify(param)}`;
}
