// A static file server on 127.0.0.1 for the webview outside VS Code (media/dev-harness.html): only
// the harness, the built bundle and the icon font are served. Used by the webview benchmark and
// the gallery.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};
const ALLOWED = ['media/', 'dist/', 'node_modules/@vscode/codicons/dist/'];

export function serveWebview(root: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^\/+/, '');
    if (!ALLOWED.some((p) => path.startsWith(p))) return void res.writeHead(404).end();
    try {
      const body = readFileSync(join(root, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}
