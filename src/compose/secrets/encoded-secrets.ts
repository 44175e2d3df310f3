// Secrets kept in base64: a deploy key stored as one base64 line (`DEPLOY_KEY_B64=LS0tLS1CRUdJTi…`,
// how CI systems hold multi-line keys), a Kubernetes secret's data, a registry config passed as a
// blob. A run of base64 long enough to hold a key (wrapped lines joined) is decoded; when it
// decodes to text, the same rules search that text, and the whole run counts if they find one.
// Hashes, binary data and ordinary words decode to bytes that are not text and are passed over.
// Runs are found by one pass over the characters (a regular expression cost twice as much).

/** Shortest run decoded, and shortest wrapped line after it. */
const MIN_RUN = 32;
const MIN_WRAPPED_LINE = 16;
/** Decoded bytes that must be text: printable ASCII, tabs and line breaks. */
const MIN_TEXT_SHARE = 0.95;

/** The characters of base64 and base64url. */
const B64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') B64[c.charCodeAt(0)] = 1;
const isB64 = (c: number) => c < 128 && B64[c] === 1;

/** The spans of base64 runs in `text` whose decoded text `find` finds a credential in. */
export function encodedSecretSpans(text: string, find: (decoded: string) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < text.length) {
    if (!isB64(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    i = runEnd(text, i);
    if (i - start < MIN_RUN) continue;
    i = wrappedEnd(text, i);
    const decoded = decodedText(text.slice(start, i));
    if (decoded !== undefined && find(decoded)) out.push([start, i]);
  }
  return out;
}

/** Where the run of base64 characters from `i` ends, its `=` padding included. */
function runEnd(text: string, i: number): number {
  while (i < text.length && isB64(text.charCodeAt(i))) i++;
  while (i < text.length && text.charCodeAt(i) === 0x3d) i++;
  return i;
}

/** The run's end past the lines it is wrapped over: a line break (or `\n` in a quoted string), indentation, and a long enough run. */
function wrappedEnd(text: string, end: number): number {
  for (;;) {
    let j = end;
    if (text.startsWith('\\n', j)) j += 2;
    else if (text.startsWith('\r\n', j)) j += 2;
    else if (text.charCodeAt(j) === 0x0a) j++;
    else return end;
    while (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09) j++;
    const next = runEnd(text, j);
    if (next - j < MIN_WRAPPED_LINE) return end;
    end = next;
  }
}

function decodedText(run: string): string | undefined {
  const bytes = Buffer.from(run.replace(/\\n|\s/g, ''), 'base64');
  if (bytes.length < 16) return undefined;
  let text = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d) text++;
  return text >= bytes.length * MIN_TEXT_SHARE ? bytes.toString('latin1') : undefined;
}
