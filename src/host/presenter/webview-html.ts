// The webview's HTML: a strict CSP (no inline script or style, nothing remote), the bundle
// loaded by nonce, and the style sheets the host passes as webview URIs (codicon.css, webview.css).

export interface WebviewHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value per render (see `makeNonce`). */
  nonce: string;
  /** `webview.asWebviewUri(dist/webview.js)`, as a string. */
  scriptUri: string;
  /** Style sheets in order, as webview URIs: codicon.css, then dist/webview.css (esbuild emits it
   *  next to dist/webview.js because media/main.ts imports media/styles/*.css). */
  styleUris: readonly string[];
  title?: string;
}

const escapeAttr = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

export function renderWebviewHtml(options: WebviewHtmlOptions): string {
  const csp = escapeAttr(contentSecurityPolicy(options.cspSource, options.nonce));
  const links = options.styleUris.map((uri) => `    <link rel="stylesheet" href="${escapeAttr(uri)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${csp}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}
    <title>${escapeAttr(options.title ?? 'Keel')}</title>
  </head>
  <body>
    <div id="keel-root"></div>
    <script nonce="${escapeAttr(options.nonce)}" src="${escapeAttr(options.scriptUri)}"></script>
  </body>
</html>`;
}

/** 32 random characters from [A-Za-z0-9]: the nonce for one render. */
export function makeNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
