// The browser port: one look at one page, for browser_check. The host opens the URL in a headless
// browser it found on the machine (never one it downloads), lets the page reach only loopback and
// the hosts the user allowed, runs the steps, and reports what a person checking the page would
// see: its title, its text or accessibility tree, what went wrong in its console and its network,
// and a screenshot. The browser is closed when the check ends, however it ends.

/** One step on the page, in order: click an element, type into a field, wait for some text. */
export type BrowserStep =
  | { type: 'click'; selector: string }
  | { type: 'fill'; selector: string; value: string }
  | { type: 'wait_for_text'; text: string };

export interface BrowserCheckRequest {
  /** An absolute http: or https: URL the caller has already checked against the loopback rule. */
  url: string;
  steps: readonly BrowserStep[];
  /** For the page's load and for each step. */
  timeoutMs: number;
  /** The page's visible text, or its accessibility tree (roles and names). */
  view: 'text' | 'accessibility';
  /** Characters of text or tree kept at most. */
  maxTextChars: number;
}

interface BrowserStepError {
  step: number;
  message: string;
}

export interface BrowserCheckReport {
  /** Where the page ended up (after redirects). */
  url: string;
  /** The main document's HTTP status; absent when it never answered. */
  status?: number;
  title: string;
  text: string;
  /** True when `text` was cut at `maxTextChars`. */
  textCut: boolean;
  consoleErrors: string[];
  /** Requests that failed (connection refused, an HTTP status of 400 or more). */
  failedRequests: string[];
  /** Requests the browser was not let make (a host outside loopback the user did not allow). */
  blockedRequests: string[];
  /** The first step that failed, if any; the report is of the page as it was then. */
  stepError?: BrowserStepError;
  /** A PNG of the visible page, base64. */
  screenshot?: string;
  durationMs: number;
}

/** `unavailable`: no browser on this machine (the message says how to install one). */
export type BrowserErrorCode = 'unavailable' | 'timeout' | 'failed' | 'cancelled';

export class BrowserError extends Error {
  constructor(
    readonly code: BrowserErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BrowserError';
  }
}

export interface BrowserChecker {
  /** True for a host the user allowed beside loopback (the same list web_fetch reads). */
  allowsHost(host: string): boolean;
  /** Throws BrowserError when the browser is missing, the page never loads, or the call is cancelled. */
  check(request: BrowserCheckRequest, signal: AbortSignal): Promise<BrowserCheckReport>;
}
