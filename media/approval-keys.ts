// The approval keys: the bindings package.json declares (a unit test holds the two together),
// each shown in the notation of the platform the view runs on — Alt+Shift+Y on Linux and Windows,
// ⌥⇧⌘Y on macOS — never both. While the view has the keyboard it answers them itself: VS Code
// sets no context key for a focused webview view, so the keybindings (which serve the diff
// editor) never fire there.
export interface ApprovalKey {
  command: string;
  /** What the key does, in words. */
  what: string;
  /** VS Code's notation, as in package.json: `key` on Linux and Windows, `mac` on macOS. */
  key: string;
  mac: string;
}

export const APPROVAL_KEYS: readonly ApprovalKey[] = [
  { command: 'keel.approvePending', what: 'Approve', key: 'alt+shift+y', mac: 'cmd+alt+shift+y' },
  { command: 'keel.rejectPending', what: 'Reject', key: 'alt+shift+n', mac: 'cmd+alt+shift+n' },
  { command: 'keel.approvePendingForTask', what: 'Approve always for this task', key: 'alt+shift+a', mac: 'cmd+alt+shift+a' },
];

const MAC_SYMBOLS: Record<string, string> = { ctrl: '⌃', alt: '⌥', shift: '⇧', cmd: '⌘' };
const MAC_ORDER = ['ctrl', 'alt', 'shift', 'cmd'];
const WORDS: Record<string, string> = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', meta: 'Meta' };

/** Whether the view runs on macOS (the webview's own browser says). */
export function onMac(nav: { platform?: string; userAgent?: string } = globalThis.navigator ?? {}): boolean {
  return /Mac/i.test(nav.platform ?? '') || /Macintosh/i.test(nav.userAgent ?? '');
}

/** `alt+shift+y` → "Alt+Shift+Y"; on macOS `cmd+alt+shift+y` → "⌥⇧⌘Y". */
export function keyLabel(binding: ApprovalKey, mac = onMac()): string {
  const parts = (mac ? binding.mac : binding.key).split('+');
  const last = parts.pop()!.toUpperCase();
  if (mac)
    return `${MAC_ORDER.filter((m) => parts.includes(m))
      .map((m) => MAC_SYMBOLS[m])
      .join('')}${last}`;
  return [...parts.map((p) => WORDS[p] ?? p), last].join('+');
}

/** The approval key a keydown is, if any (letters by their physical key, as VS Code matches them). */
export function approvalKeyOf(e: KeyboardEvent, mac = onMac()): ApprovalKey | undefined {
  return APPROVAL_KEYS.find((binding) => {
    const parts = (mac ? binding.mac : binding.key).split('+');
    const letter = parts.at(-1)!;
    return (
      e.code === `Key${letter.toUpperCase()}` &&
      e.altKey === parts.includes('alt') &&
      e.shiftKey === parts.includes('shift') &&
      e.ctrlKey === parts.includes('ctrl') &&
      e.metaKey === parts.includes('cmd')
    );
  });
}

/** "Approve: Alt+Shift+Y · Reject: …" for a waiting card's tooltip. */
export function approvalKeysTitle(mac = onMac()): string {
  return APPROVAL_KEYS.map((k) => `${k.what}: ${keyLabel(k, mac)}`).join(' · ');
}
