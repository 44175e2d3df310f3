// The composer's context tray: `@` typed at the start of a word (or the Add Context button)
// asks the host for its picker, and each pick comes back as a chip; images pasted or dropped
// into the composer become thumbnails. Both can be removed before sending, and are taken (and
// cleared) by the message that sends them. A notice line says what was left out and why.
import { type AttachmentChip, type ImageInput, MAX_IMAGES_PER_MESSAGE, TestIds, type WebviewMessage } from '../src/protocol/index.js';
import { MentionMenu } from './mention-menu.js';
import { h, icon, setHidden } from './dom.js';
import { canvasShrink, type Shrink, toImageInput } from './image-input.js';

const KIND_ICONS: Record<AttachmentChip['kind'], string> = {
  file: 'file',
  folder: 'folder',
  problems: 'warning',
  selection: 'selection',
  changes: 'git-compare',
  terminal: 'terminal',
};

const TEXT_ONLY = 'The model in use does not read images: they will be left out of what it sees (the message says so).';

export interface Outgoing {
  attachmentIds?: string[];
  images?: ImageInput[];
}

export class AttachmentTray {
  readonly el: HTMLElement;
  private readonly chips = h('div', { class: 'attachment-chips', attrs: { role: 'list', 'aria-label': 'Attached context' } });
  private readonly notice = h('div', { class: 'attachment-notice', attrs: { role: 'status' } });
  private attached: AttachmentChip[] = [];
  private images: ImageInput[] = [];
  /** Image reads in flight: a send waits for them. */
  private reading: Promise<unknown> = Promise.resolve();
  private readsInFlight = 0;
  /** Whether the model in use reads images (from the hints); false: they are kept but flagged. */
  private vision = true;

  constructor(
    private readonly post: (m: WebviewMessage) => void,
    private readonly shrink: Shrink = canvasShrink,
  ) {
    this.el = h('div', { class: 'attachment-tray' }, this.chips, this.notice);
    this.chips.addEventListener('keydown', (e) => this.onChipKey(e));
    this.render();
  }

  /** The text box the keyboard goes back to from the chips (set by `bind`). */
  private input: HTMLTextAreaElement | undefined;

  /** Forgets the chips and images (another task is shown: they were for the one before). */
  clear(): void {
    this.attached = [];
    this.images = [];
    this.say('');
    this.render();
  }

  /** The `@` menu at the caret (made by `bind`). */
  mentions: MentionMenu | undefined;

  /** Wires the composer's text box: `@` at a word start (the menu, in `dropZone`), paste and drop of images. */
  bind(input: HTMLTextAreaElement, dropZone: HTMLElement, takeKeys?: (take: (e: KeyboardEvent) => boolean) => void): void {
    this.input = input;
    const mentions = new MentionMenu(input, this.post);
    this.mentions = mentions;
    dropZone.prepend(mentions.el);
    takeKeys?.((e) => mentions.onKey(e));
    input.addEventListener('input', (e) => this.onInput(input, e as InputEvent));
    input.addEventListener('paste', (e) => this.onFiles(e, e.clipboardData?.files));
    dropZone.addEventListener('dragover', (e) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    });
    dropZone.addEventListener('drop', (e) => this.onFiles(e, e.dataTransfer?.files));
  }

  /** The button beside Send (keyboard users need not type `@`). */
  pickButton(): HTMLButtonElement {
    const button = h(
      'button',
      { class: 'icon-button', attrs: { type: 'button', title: 'Add context (@)', 'aria-label': 'Add context (@)' } },
      icon('mention'),
    );
    button.addEventListener('click', () => this.post({ type: 'attach/pick' }));
    return button;
  }

  /** A chip from the host (`composer/attach`). */
  add(chip: AttachmentChip): void {
    if (!chip.id || this.attached.some((c) => c.id === chip.id)) return;
    this.attached.push(chip);
    this.say('');
    this.render();
  }

  async addImageBytes(bytes: Uint8Array): Promise<void> {
    if (this.images.length >= MAX_IMAGES_PER_MESSAGE) return this.say(`At most ${MAX_IMAGES_PER_MESSAGE} images per message: left out.`);
    const result = await toImageInput(bytes, this.shrink);
    if (!result.ok) return this.say(result.reason);
    this.images.push(result.image);
    this.say(this.vision ? '' : TEXT_ONLY);
    this.render();
  }

  setVision(vision: boolean): void {
    this.vision = vision;
    if (this.images.length) this.say(vision ? '' : TEXT_ONLY);
  }

  /** Calls `send` with what the next message carries and clears the tray; at once unless images are still being read. */
  withOutgoing(send: (out: Outgoing) => void): void {
    if (this.readsInFlight === 0) return send(this.take());
    void this.reading.then(() => send(this.take()));
  }

  private take(): Outgoing {
    const out: Outgoing = {};
    const ids = this.attached.map((c) => c.id!).filter(Boolean);
    if (ids.length) out.attachmentIds = ids;
    if (this.images.length) out.images = this.images;
    this.attached = [];
    this.images = [];
    this.render();
    return out;
  }

  get empty(): boolean {
    return this.attached.length === 0 && this.images.length === 0;
  }

  private onInput(input: HTMLTextAreaElement, e: InputEvent): void {
    if (e.data !== '@') return;
    const at = input.selectionStart - 1;
    const before = at > 0 ? input.value[at - 1]! : ' ';
    if (input.value[at] !== '@' || !/\s/.test(before)) return;
    // The menu opens at the `@`, which stays: the pick goes in its place, in the sentence.
    this.mentions?.open(at);
  }

  private onFiles(e: Event, files: FileList | null | undefined): void {
    const list = [...(files ?? [])];
    if (list.length === 0) return;
    e.preventDefault();
    this.readsInFlight += list.length;
    const reads = list.map(async (f) => {
      try {
        await this.addImageBytes(new Uint8Array(await f.arrayBuffer()));
      } finally {
        this.readsInFlight--;
      }
    });
    this.reading = Promise.all([this.reading, ...reads]);
  }

  private say(text: string): void {
    this.notice.textContent = text;
    setHidden(this.notice, text === '');
  }

  private render(focusAt?: number): void {
    const chips = this.attached.map((chip) => attachmentChip(chip, () => this.removeChip(chip)));
    const thumbs = this.images.map((image, i) => imageThumb(image, i, () => this.removeChip(image)));
    const all = [...chips, ...thumbs];
    // One Tab stop for the whole list; the arrows move inside it (a roving tabindex).
    const stop = Math.min(focusAt ?? 0, all.length - 1);
    all.forEach((el, i) => {
      el.setAttribute('tabindex', i === stop ? '0' : '-1');
    });
    this.chips.replaceChildren(...all);
    // The text-only warning is about images in the tray: once they are sent or removed it is stale.
    if (this.images.length === 0 && this.notice.textContent === TEXT_ONLY) this.say('');
    setHidden(this.el, this.empty && this.notice.textContent === '');
    if (focusAt === undefined) return;
    if (all.length === 0) this.input?.focus();
    else all[Math.min(focusAt, all.length - 1)]!.focus();
  }

  private removeChip(what: AttachmentChip | ImageInput, focusAt?: number): void {
    this.attached = this.attached.filter((c) => c !== what);
    this.images = this.images.filter((x) => x !== what);
    this.render(focusAt);
  }

  /** ←/→ (and Home/End) move between chips; Delete or Backspace removes one; Escape goes back to the text. */
  private onChipKey(e: KeyboardEvent): void {
    const items = [...this.chips.children] as HTMLElement[];
    const at = items.indexOf(e.target as HTMLElement);
    if (at < 0) return;
    const move = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
    if (move !== undefined) {
      e.preventDefault();
      const next = items[Math.max(0, Math.min(items.length - 1, move))]!;
      for (const item of items) item.setAttribute('tabindex', item === next ? '0' : '-1');
      next.focus();
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      const all: (AttachmentChip | ImageInput)[] = [...this.attached, ...this.images];
      this.removeChip(all[at]!, e.key === 'Backspace' ? Math.max(0, at - 1) : at);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.input?.focus();
    }
  }
}

/** A chip: the kind's icon and label; in the composer also a remove button. */
export function attachmentChip(chip: AttachmentChip, remove?: () => void): HTMLElement {
  const cut = chip.cutChars ? ` (cut: ${chip.cutChars} characters over the budget)` : '';
  const el = h(
    'span',
    {
      class: 'attachment-chip',
      attrs: {
        role: 'listitem',
        title: `${chip.label}${cut}`,
        'aria-label': remove ? `${chip.label}${cut}; Delete removes it` : `${chip.label}${cut}`,
        'data-testid': TestIds.attachmentChip,
        'data-kind': chip.kind,
      },
    },
    icon(KIND_ICONS[chip.kind]),
    h('span', { class: 'attachment-label', text: chip.label }),
    chip.cutChars ? h('span', { class: 'attachment-cut', text: '(cut)' }) : null,
  );
  if (remove) el.append(removeButton(`Remove ${chip.label}`, remove));
  return el;
}

export function imageThumb(image: ImageInput, index: number, remove?: () => void): HTMLElement {
  const img = h('img', {
    class: 'image-thumb',
    attrs: { src: `data:${image.mediaType};base64,${image.data}`, alt: `Image ${index + 1}`, 'data-testid': TestIds.messageImage },
  });
  const el = h('span', { class: 'attachment-chip image', attrs: { role: 'listitem' } }, img);
  if (remove) el.append(removeButton(`Remove image ${index + 1}`, remove));
  return el;
}

function removeButton(label: string, onClick: () => void): HTMLButtonElement {
  // Not a Tab stop of its own: the keyboard removes a chip with Delete (see onChipKey).
  const button = h(
    'button',
    { class: 'icon-button attachment-remove', attrs: { type: 'button', title: label, 'aria-label': label, tabindex: '-1' } },
    icon('close'),
  );
  button.addEventListener('click', onClick);
  return button;
}
