import './dom-env.js';
import assert from 'node:assert/strict';
import { toImageInput } from '../../../media/image-input.js';
import { MAX_IMAGE_BYTES, MAX_IMAGE_EDGE_PX, sniffImageType } from '../../../src/protocol/index.js';
import { click, key, makeApp, q, type TestApp } from './dom-env.js';
import { snapshot } from './fixtures.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
const GIF = new TextEncoder().encode('GIF89a....');
const WEBP = new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

function ready(): TestApp {
  const t = makeApp();
  t.receive(snapshot());
  t.frame();
  return t;
}

/** Types `text` at the caret as the browser would: the value changes, then an input event with the data. */
function type(input: HTMLTextAreaElement, text: string): void {
  const at = input.selectionStart;
  input.value = input.value.slice(0, at) + text + input.value.slice(at);
  input.setSelectionRange(at + text.length, at + text.length);
  const InputEvent = (window as unknown as { InputEvent: typeof globalThis.InputEvent }).InputEvent;
  input.dispatchEvent(new InputEvent('input', { data: text, bubbles: true }));
}

function paste(input: HTMLElement, ...files: Uint8Array[]): Event {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  const list = files.map((bytes) => ({
    arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  }));
  Object.defineProperty(event, 'clipboardData', { value: { files: list } });
  input.dispatchEvent(event);
  return event;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('webview: attachments', () => {
  it('`@` at the start of a word opens the menu (the `@` stays in the text); inside a word it is just a character', () => {
    const t = ready();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    type(input, 'look at ');
    type(input, '@');
    assert.deepEqual(t.posted.at(-1), { type: 'mention/list' });
    assert.equal(input.value, 'look at @');
    key(input, 'Escape');
    input.value = 'look at ';
    input.setSelectionRange(8, 8);
    const before = t.posted.length;
    for (const ch of 'me@example.com') type(input, ch);
    assert.equal(t.posted.length, before, 'an e-mail address does not open the picker');
    assert.equal(input.value, 'look at me@example.com');
  });

  it('shows a picked chip, sends its id with the message, then clears the tray', () => {
    const t = ready();
    t.receive({ type: 'composer/attach', chip: { id: 'att1', kind: 'file', label: 'src/a.ts' } });
    t.receive({ type: 'composer/attach', chip: { id: 'att2', kind: 'problems', label: 'Problems (2)' } });
    const chips = t.root.querySelectorAll('.attachment-tray [data-testid="attachment-chip"]');
    assert.deepEqual(
      [...chips].map((c) => c.textContent),
      ['src/a.ts', 'Problems (2)'],
    );
    click(q(t.root, '.attachment-tray [aria-label="Remove Problems (2)"]'));
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    input.value = 'explain this';
    key(input, 'Enter');
    assert.deepEqual(t.posted.at(-1), { type: 'task/send', text: 'explain this', attachmentIds: ['att1'] });
    assert.equal(t.root.querySelectorAll('.attachment-tray [data-testid="attachment-chip"]').length, 0);
    assert.equal(q(t.root, '.attachment-tray').hidden, true);
  });

  it('a pasted PNG becomes a thumbnail and travels as base64; bytes that are no image are refused with a notice', async () => {
    const t = ready();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    assert.equal(paste(input, PNG).defaultPrevented, true);
    await settle();
    const thumb = q<HTMLImageElement>(t.root, '.attachment-tray [data-testid="message-image"]');
    assert.equal(thumb.getAttribute('src'), `data:image/png;base64,${b64(PNG)}`);
    paste(input, new TextEncoder().encode('%PDF-1.7 not an image'));
    await settle();
    assert.match(q(t.root, '.attachment-notice').textContent ?? '', /Not a PNG, JPEG, GIF or WebP image/);
    input.value = 'what is wrong here?';
    key(input, 'Enter');
    await settle();
    assert.deepEqual(t.posted.at(-1), {
      type: 'task/send',
      text: 'what is wrong here?',
      images: [{ mediaType: 'image/png', data: b64(PNG) }],
    });
  });

  it('a message sent while an image is still being read waits for it', async () => {
    const t = ready();
    const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
    paste(input, JPEG);
    input.value = 'see';
    key(input, 'Enter');
    await settle();
    await settle();
    const sent = t.posted.filter((m) => m.type === 'task/send');
    assert.deepEqual(sent, [{ type: 'task/send', text: 'see', images: [{ mediaType: 'image/jpeg', data: b64(JPEG) }] }]);
  });

  it('warns that a text-only model will not see a pasted image', async () => {
    const t = makeApp();
    t.receive(
      snapshot([], {
        hints: { noApiKey: false, restricted: false, canResume: false, model: { provider: 'openai', model: 'llama3', vision: false } },
      }),
    );
    t.frame();
    paste(q(t.root, '[data-testid="input"]'), PNG);
    await settle();
    assert.match(q(t.root, '.attachment-notice').textContent ?? '', /does not read images: they will be left out/);
  });

  it('a sent message shows its chips and thumbnails', () => {
    const t = makeApp();
    t.receive(
      snapshot([
        {
          kind: 'user',
          id: 'u1',
          text: 'fix',
          attachments: [{ kind: 'selection', label: 'src/a.ts:3-9', cutChars: 120 }],
          images: [{ mediaType: 'image/gif', data: b64(GIF) }],
        },
      ]),
    );
    t.frame();
    const message = q(t.root, '[data-testid="user-message"]');
    const chip = q(message, '[data-testid="attachment-chip"]');
    assert.equal(chip.dataset.kind, 'selection');
    assert.match(chip.title, /cut: 120 characters/);
    assert.equal(q(message, '[data-testid="message-image"]').getAttribute('src'), `data:image/gif;base64,${b64(GIF)}`);
    assert.equal(message.querySelector('.attachment-remove'), null, 'a sent message has nothing to remove');
  });
});

describe('webview: images in', () => {
  it('knows the four image kinds by their magic bytes, whatever the name says', () => {
    assert.equal(sniffImageType(PNG), 'image/png');
    assert.equal(sniffImageType(JPEG), 'image/jpeg');
    assert.equal(sniffImageType(GIF), 'image/gif');
    assert.equal(sniffImageType(WEBP), 'image/webp');
    assert.equal(sniffImageType(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ')), undefined, 'a RIFF that is not WebP');
    assert.equal(sniffImageType(new TextEncoder().encode('<svg xmlns=')), undefined);
  });

  it('asks for a downscale to the provider edge and sends what comes back', async () => {
    const asked: number[] = [];
    const result = await toImageInput(PNG, async (_bytes, _type, edge) => {
      asked.push(edge);
      return { mediaType: 'image/jpeg', bytes: JPEG };
    });
    assert.deepEqual(asked, [MAX_IMAGE_EDGE_PX]);
    assert.deepEqual(result, { ok: true, image: { mediaType: 'image/jpeg', data: b64(JPEG) } });
  });

  it('refuses an image still over the size cap after downscaling', async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    const result = await toImageInput(big, async () => undefined);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : '', /too large/);
  });
});

describe('webview: header pickers', () => {
  it('shows the model and the auto-approve classes and asks the host to change them', () => {
    const t = makeApp();
    t.receive(
      snapshot([], {
        hints: {
          noApiKey: false,
          restricted: false,
          canResume: false,
          model: { provider: 'openai', model: 'llama3', vision: false },
          autoApprove: ['read'],
        },
      }),
    );
    t.frame();
    const model = q(t.root, '[data-testid="model-picker"]');
    assert.equal(model.textContent, 'llama3 · text only');
    assert.match(model.getAttribute('aria-label') ?? '', /openai \/ llama3/);
    assert.equal(q(t.root, '[data-testid="auto-approve-picker"]').textContent, 'Auto: read');
    click(model);
    assert.deepEqual(t.posted.at(-1), { type: 'model/pick' });
    click(q(t.root, '[data-testid="auto-approve-picker"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'autoApprove/pick' });
  });
});
