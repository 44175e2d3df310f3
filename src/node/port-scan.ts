// Finds the ports a background process says it listens on, from the lines it prints: a URL on a
// local host (vite's `Local: http://localhost:5173/`, `http://127.0.0.1:8000`) or a phrase
// (`listening on :3000`, `Listening on port 8080`, `running at 0.0.0.0:4000`). Colour codes are
// dropped first, since dev servers paint their URLs. Only what the process printed is read: a
// port it opened silently is not found, and the tools say so rather than guess.

/** ANSI escape sequences (colours, cursor moves) that dev servers wrap their output in. */
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

const LOCAL_HOST = String.raw`(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::\])`;
/** `http://localhost:5173`, `https://127.0.0.1:8443/`. */
const LOCAL_URL = new RegExp(String.raw`\bhttps?://${LOCAL_HOST}:(\d{1,5})\b`, 'gi');
/** `listening on :3000`, `listening on port 3000`, `running at 0.0.0.0:4000`, `port: 8080`. */
const PHRASE = new RegExp(
  String.raw`\b(?:listening|listen|running|serving|started|available|bound)\b[^\n]{0,40}?(?:\bport\b\s*[:=]?\s*|${LOCAL_HOST}?:)(\d{1,5})\b`,
  'gi',
);
const PORT_WORD = /\bport\b\s*[:=]?\s*(\d{2,5})\b/gi;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** The ports named in `text`, in the order first printed, each once. */
export function parsePorts(text: string): number[] {
  const plain = stripAnsi(text);
  const mentions: { at: number; port: number }[] = [];
  for (const pattern of [LOCAL_URL, PHRASE, PORT_WORD])
    for (const m of plain.matchAll(pattern)) {
      const port = Number(m[1]);
      if (port >= 1 && port <= 65535) mentions.push({ at: (m.index ?? 0) + m[0].length, port });
    }
  mentions.sort((a, b) => a.at - b.at);
  return [...new Set(mentions.map((m) => m.port))];
}

/**
 * Keeps the ports found in a stream of chunks: a line split across two chunks is read once
 * whole, so `http://localhost:51` + `73/` is 5173, never 51.
 */
export class PortScanner {
  private partial = '';
  private readonly ports: number[] = [];

  push(chunk: string): void {
    const text = this.partial + chunk;
    const end = text.lastIndexOf('\n');
    // A line longer than this without a newline is read as it stands (a progress bar).
    const complete = end >= 0 ? text.slice(0, end) : text.length > 4096 ? text : '';
    this.partial = text.slice(complete.length);
    if (complete) this.add(parsePorts(complete));
  }

  /** The ports so far, the unfinished last line included. */
  found(): readonly number[] {
    if (this.partial) this.add(parsePorts(this.partial));
    return this.ports;
  }

  private add(ports: readonly number[]): void {
    for (const p of ports) if (!this.ports.includes(p)) this.ports.push(p);
  }
}
