import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

/** A reply read in full. */
export interface BoundedReply {
  readonly status: number;
  readonly statusText: string;
  readonly headers: http.IncomingHttpHeaders;
  /** The body with its `Content-Encoding` undone, read as UTF-8. */
  readonly body: string;
  /** Bytes of the decoded body. */
  readonly bytes: number;
}

/** Options of {@link boundedGet}. */
export interface BoundedGetOptions {
  /** Aborting destroys the connection and rejects with the signal's reason, at once. */
  readonly signal: AbortSignal;
  /** Most bytes read off the connection, and most bytes the body may decode to. */
  readonly maxBytes: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One GET, as the entity resolver needs it; replaceable so a test can stand in an HTTP stack that misbehaves. */
export type HttpGet = (url: URL, options: BoundedGetOptions) => Promise<BoundedReply>;

/** A body over the byte cap: reading stopped once `bytes` had been counted. */
export class BodyTooLargeError extends Error {
  constructor(
    /** `received`: bytes off the connection (or a `Content-Length` above the cap); `decoded`: bytes after decompression. */
    readonly stage: 'received' | 'decoded',
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(stage === 'received' ? `body larger than ${limit} bytes` : `body decompresses to more than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** A body whose `Content-Encoding` could not be undone. */
export class BodyEncodingError extends Error {
  override readonly name = 'BodyEncodingError';
}

/**
 * One HTTP(S) GET whose body is read in full, within limits the server cannot stretch:
 *
 * - redirects are never followed (a 3xx is returned like any other reply);
 * - at most `maxBytes` are read off the connection and at most `maxBytes` decoded (gzip, deflate or br),
 *   a `Content-Length` above the cap is refused before reading; beyond either cap the connection is
 *   destroyed and the promise rejects with a {@link BodyTooLargeError};
 * - aborting `signal` destroys the connection and rejects with its reason without waiting for the
 *   stack to notice.
 *
 * Network failures reject with Node's own error (its `code` says what happened: `ECONNREFUSED`, ...).
 */
export const boundedGet: HttpGet = (url, { signal, maxBytes, headers = {} }) =>
  new Promise<BoundedReply>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const streams: { destroy(): unknown }[] = [];
    let settled = false;
    const onAbort = (): void => fail(signal.reason);
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: unknown): void =>
      settle(() => {
        for (const stream of streams) stream.destroy();
        reject(error);
      });
    signal.addEventListener('abort', onAbort, { once: true });

    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { headers: { 'accept-encoding': 'gzip, deflate, br', ...headers } }, (response) => {
      streams.push(response);
      response.on('error', fail);
      const declared = Number(response.headers['content-length']);
      if (declared > maxBytes) {
        fail(new BodyTooLargeError('received', declared, maxBytes));
        return;
      }
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) fail(new BodyTooLargeError('received', received, maxBytes));
      });
      let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined;
      try {
        decoder = decoderFor(response.headers['content-encoding']);
      } catch (error) {
        fail(error);
        return;
      }
      let body: Readable = response;
      if (decoder !== undefined) {
        streams.push(decoder);
        decoder.on('error', (error) => fail(new BodyEncodingError(`could not decompress the body: ${error.message}`)));
        body = response.pipe(decoder);
      }
      const chunks: Buffer[] = [];
      let decoded = 0;
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        decoded += chunk.length;
        if (decoded > maxBytes) fail(new BodyTooLargeError('decoded', decoded, maxBytes));
        else chunks.push(chunk);
      });
      body.on('end', () =>
        settle(() =>
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            headers: response.headers,
            body: Buffer.concat(chunks, decoded).toString('utf8'),
            bytes: decoded,
          }),
        ),
      );
      // A connection closed before the body ended must not leave the promise waiting.
      response.on('close', () => {
        if (!response.complete)
          fail(Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }));
      });
    });
    streams.push(request);
    request.on('error', fail);
  });

/** The decoder for a `Content-Encoding`, none for identity; throws for codings it cannot undo. */
function decoderFor(encoding: string | undefined): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return undefined;
  if (codings.length > 1)
    throw new BodyEncodingError(
      `the body is encoded more than once (Content-Encoding: ${String(encoding).slice(0, 100)})`,
    );
  switch (codings[0]) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new BodyEncodingError(`unsupported Content-Encoding: ${String(codings[0]).slice(0, 100)}`);
  }
}
