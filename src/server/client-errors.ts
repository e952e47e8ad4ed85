// Answers for what Node's HTTP parser refuses before Fastify sees a request: a header section
// or request line over Node's limit (16 KiB), a body that disagrees with Content-Length,
// bytes that are not HTTP. There is no request or reply object there, so the answer is
// written to the socket by hand: a complete HTTP/1.1 response in the contract's error shape,
// with a Request-Id, and the connection closed (the parser cannot resynchronise).
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../core/errors.js';
import { errorBody } from './error-handler.js';
import { MAX_URL_BYTES } from './early-errors.js';
import { newRequestId } from './request-id.js';

/** Node's clientError: `rawPacket` holds the bytes being parsed when the parser gave up. */
type ClientError = Error & { code?: string; rawPacket?: unknown };

/** A method token and a space: the start of a request line. */
const REQUEST_LINE_START = /^[A-Z]{3,10} /;

export function apiErrorForClientError(error: ClientError): ApiError | undefined {
  switch (error.code) {
    case 'ECONNRESET':
      return undefined; // the client is gone: nobody to answer
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new ApiError('request_timeout', 'The request did not arrive in time.');
    case 'HPE_HEADER_OVERFLOW':
      return requestLineOverflowed(error.rawPacket)
        ? new ApiError('uri_too_long', `The URL is over ${MAX_URL_BYTES} bytes; send fewer or shorter parameters (an export takes its filters in the body).`)
        : new ApiError('headers_too_large', 'The request headers are over 16 KiB; send fewer or smaller headers.');
    case 'HPE_INVALID_EOF_STATE':
      return new ApiError('invalid_request', 'The connection ended before the request was complete: the body is shorter than its Content-Length.');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new ApiError('invalid_request', 'The body length is ambiguous: send either Content-Length or Transfer-Encoding: chunked, not both.');
    case 'HPE_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_request', 'The Content-Length header is not a valid length.');
    case 'HPE_INVALID_URL':
      // Mostly `curl '…?q=göteborg'`: letters outside ASCII must be percent-encoded (RFC 3986).
      return new ApiError(
        'invalid_request',
        'The URL has a character that must be percent-encoded (a space, or a letter such as å, ä or ö: ö is %C3%B6); with curl, use -G --data-urlencode \'q=göteborg\'.',
      );
    case 'HPE_INVALID_METHOD':
      return new ApiError('invalid_request', 'The request is not valid HTTP; if it followed a request with a body, that body was longer than its Content-Length.');
    default:
      return new ApiError('invalid_request', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * Node counts the request line and the headers against one limit; when what overflowed is
 * the request line itself (no line break yet, or a first line over our URL limit), the URL
 * is what is too long.
 */
function requestLineOverflowed(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet)) return false;
  const head = packet.toString('latin1', 0, Math.min(packet.length, 64 * 1024));
  const end = head.indexOf('\r\n');
  if (!REQUEST_LINE_START.test(head)) return end < 0;
  return end < 0 || end > MAX_URL_BYTES;
}

/** A complete HTTP/1.1 response as bytes, for writing straight to a socket. */
export function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(errorBody(error, requestId));
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
    `Request-Id: ${requestId}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n' +
    `Date: ${new Date().toUTCString()}\r\n` +
    `\r\n${body}`
  );
}

/** Fastify's clientErrorHandler (the http server's 'clientError' event). */
export function handleClientError(error: ClientError, socket: Socket): void {
  const apiError = apiErrorForClientError(error);
  if (!apiError || socket.destroyed) return;
  const res = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (res && !res.headersSent && !res.req.complete) {
    // The request being read failed (its body ended short of Content-Length): answer it.
    const id = newRequestId();
    const body = JSON.stringify(errorBody(apiError, id));
    res.writeHead(apiError.status, {
      'Request-Id': id,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(body, () => socket.destroy());
    return;
  }
  // The request before asked to close the connection: the server answers it and reads nothing
  // after it (RFC 9112, 9.6), so what followed gets no answer of its own.
  if (res && asksToClose(res.req.headers.connection)) {
    const close = () => socket.end();
    if (res.writableFinished) close();
    else res.once('finish', close);
    setTimeout(() => socket.destroy(), 5000).unref();
    return;
  }
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    if (socket.writable) socket.end(rawErrorResponse(apiError, newRequestId()));
    setTimeout(() => socket.destroy(), 1000).unref();
  };
  // A complete request on this connection is still being answered and what followed it did
  // not parse (its body was longer than its Content-Length): let its answer go out first.
  if (res && !res.writableFinished) {
    res.once('finish', answer);
    setTimeout(answer, 5000).unref();
  } else answer();
}

function asksToClose(connection: string | undefined): boolean {
  return (connection ?? '').split(',').some((option) => option.trim().toLowerCase() === 'close');
}
