// Text a person must judge (a command line before it runs, a path before it is written) shown
// with nothing hidden: control characters become their Unicode control pictures (␛, ␊), and
// characters that are invisible or reorder what is shown — bidi overrides and isolates,
// zero-width characters, non-breaking and other look-alike spaces, tag characters — become
// ⟨U+XXXX⟩ markers. Pure: the extension's approval cards and the CLI's prompts both use it.

/** Invisible, reordering or space-like code points that are not plain ASCII space. */
const HIDDEN =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched on its own, joiners included, on purpose
  /[\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function marker(ch: string): string {
  return `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

function controlPicture(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code === 0x0a) return '␊\n'; // shown, and still a line break: a second command stays readable
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '␡';
  return marker(ch);
}

export function visibleText(text: string): string {
  return text.replace(CONTROL, controlPicture).replace(HIDDEN, marker);
}

/** True when `visibleText` would change the text (something in it is hidden or a control). */
export function hasHiddenCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  HIDDEN.lastIndex = 0;
  return CONTROL.test(text) || HIDDEN.test(text);
}
