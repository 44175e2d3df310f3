// JSON with comments and trailing commas, as VS Code writes its settings files: comments and
// trailing commas are blanked outside strings, then JSON.parse reads the rest. Undefined for
// anything that is still not JSON. Pure.

export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(withoutTrailingCommas(withoutComments(text)));
  } catch {
    return undefined;
  }
}

/** Comments become spaces (line breaks kept), strings are left as they are. */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : close + 2;
      out += text.slice(i, end).replace(/[^\n]/g, ' ');
      i = end - 1;
    } else out += ch;
  }
  return out;
}

/** A comma followed (past whitespace) by `}` or `]` is dropped. Runs after comments are gone. */
function withoutTrailingCommas(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (ch !== ',' || !closesNext(text, i + 1)) out += ch;
  }
  return out;
}

function closesNext(text: string, from: number): boolean {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return text[i] === '}' || text[i] === ']';
}

/** The index just past the string that opens at `start` (a `"`), escapes honoured. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
