// What a URL could carry out in a form the secret rules would not see as written: percent-
// encoded (once or several times over), hex, base64 or base64url — in a path segment, a query
// key or value, the fragment, or a label of the host name (a DNS query carries that label to
// whoever runs the domain). Every decoded form is searched with the host's detector; a URL any
// of them holds a credential in is never sent.
import type { SecretDetector, SecretFinding } from '../../kernel/index.js';

/** Shortest piece decoded: shorter ones hold no key. */
const MIN_PIECE = 16;
/** Percent-decodings applied at most (`%2525…` hides one more layer each time). */
const MAX_PERCENT_LAYERS = 4;
/** Decoded bytes that must be text for the decoding to count. */
const MIN_TEXT_SHARE = 0.9;

/** The credential a URL holds in any of its decoded forms, and how it was encoded. */
export function urlSecret(url: string, secrets: SecretDetector): { finding: SecretFinding; encoding?: string } | undefined {
  const forms = percentForms(url);
  for (const text of [...forms, forms[forms.length - 1]!.replace(/\+/g, ' ')]) {
    const finding = secrets.find(text)[0];
    if (finding) return text === url ? { finding } : { finding, encoding: 'percent-encoded' };
  }
  const plain = forms[forms.length - 1]!;
  for (const [encoding, decode, shape] of DECODERS) {
    // Each piece alone, and all pieces of the encoding's shape joined (a token split over host labels or segments).
    const pieces = [...piecesOf(plain)].filter((p) => shape.test(p));
    for (const piece of [...pieces, pieces.join('')]) {
      const decoded = piece.length >= MIN_PIECE ? decode(piece) : undefined;
      const finding = decoded === undefined ? undefined : secrets.find(decoded)[0];
      if (finding) return { finding, encoding };
    }
  }
  return undefined;
}

/** The URL and each distinct percent-decoding of it, layer by layer. */
function percentForms(url: string): string[] {
  const forms = [url];
  for (let i = 0; i < MAX_PERCENT_LAYERS; i++) {
    const last = forms[forms.length - 1]!;
    const next = decodeOnce(last);
    if (next === last || next === undefined) break;
    forms.push(next);
  }
  return forms;
}

function decodeOnce(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    // A stray `%` is not an encoding: decode what is one.
    return text.replace(/(?:%[0-9a-f]{2})+/gi, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  }
}

/** The URL's pieces that could hold one encoded value: split at its delimiters, with and without `/` and `.` (host labels), in order. */
function piecesOf(text: string): Set<string> {
  const pieces = new Set<string>();
  for (const sep of [/[?&=#;,:@\s]+/, /[/?&=#;,:@.\s]+/]) for (const p of text.split(sep)) if (p.length > 0) pieces.add(p);
  return pieces;
}

/** Each encoding: its name for people, its decoder, and the shape of a piece it could have made. */
const DECODERS: readonly [string, (piece: string) => string | undefined, RegExp][] = [
  ['hex-encoded', (p) => (p.length % 2 === 0 ? asText(Buffer.from(p, 'hex')) : undefined), /^[0-9a-f]+$/i],
  ['base64-encoded', (p) => asText(Buffer.from(p, 'base64')), /^[A-Za-z0-9+/_-]+={0,2}$/],
];

function asText(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return undefined;
  let text = 0;
  for (const b of bytes) if (b >= 0x20 && b < 0x7f) text++;
  return text >= bytes.length * MIN_TEXT_SHARE ? bytes.toString('latin1') : undefined;
}
