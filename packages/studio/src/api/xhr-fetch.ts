/**
 * A `fetch` made of XMLHttpRequest, for the one call whose upload progress the Studio shows: a
 * browser's fetch reports no upload progress (and streamed request bodies need HTTP/2), XHR does.
 * It is handed to the SDK as its `fetch`, so the upload still goes through `cms.media.upload` with
 * the SDK's headers (target, CSRF from `cms_csrf`, credentials) and its error envelope handling.
 */

/** Bytes of the request body sent so far, and the total when the browser knows it. */
export interface SendProgress {
  loaded: number;
  total: number | null;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header value the Headers class refuses is not one the SDK reads.
    }
  }
  return headers;
}

/** A fetch-compatible function sending with XMLHttpRequest, reporting upload progress to `onProgress`. */
export function xhrFetch(onProgress: (progress: SendProgress) => void): typeof fetch {
  const send = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? null;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', input instanceof Request ? input.url : String(input));
      xhr.withCredentials = init.credentials === 'include';
      xhr.responseType = 'blob';
      new Headers(init.headers).forEach((value, name) => {
        xhr.setRequestHeader(name, value);
      });
      xhr.upload.onprogress = (event) =>
        onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
      xhr.onload = () => {
        const status = xhr.status;
        resolve(
          new Response(NULL_BODY_STATUSES.has(status) ? null : (xhr.response as Blob), {
            status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      };
      xhr.onerror = () => reject(new TypeError('The upload could not reach the server.'));
      xhr.onabort = () => reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send((init.body as XMLHttpRequestBodyInit | null | undefined) ?? null);
    });
  return send as typeof fetch;
}
