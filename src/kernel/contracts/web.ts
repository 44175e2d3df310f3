// The web port: one GET of one http(s) URL, with nothing of the workspace or the user's keys in
// it (no body, no cookies, a fixed set of headers), to a public address unless the user allowed
// the host. Redirects are never followed by the port: each hop comes back to the caller, who
// decides (web_fetch follows only within the same origin), and each hop is checked again.

export interface WebRequest {
  /** An absolute http: or https: URL, exactly as it will be requested. */
  url: string;
  /** Bytes of body kept at most; the rest is not read (`truncated`). */
  maxBytes: number;
  timeoutMs: number;
}

export type WebResponse =
  | {
      type: 'response';
      url: string;
      status: number;
      /** The media type without parameters, lower case ('' when absent). */
      contentType: string;
      /** The charset parameter, lower case, when given. */
      charset?: string;
      body: Uint8Array;
      truncated: boolean;
    }
  | { type: 'redirect'; url: string; status: number; location: string };

/** `refused`: the host is not public (loopback, private, link-local, metadata…) and the user has not allowed it. */
export type WebErrorCode = 'invalid_url' | 'timeout' | 'network' | 'cancelled' | 'refused';

export class WebError extends Error {
  constructor(
    readonly code: WebErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebError';
  }
}

export interface WebFetcher {
  get(request: WebRequest, signal: AbortSignal): Promise<WebResponse>;
}
