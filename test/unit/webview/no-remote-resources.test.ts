import './dom-env.js';
import assert from 'node:assert/strict';
import { click, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const MARKDOWN = [
  '![diagram](https://evil.example/track.png)',
  '',
  '![](//cdn.example/x.gif)',
  '',
  '![rel](images/local.png)',
  '',
  '<img src="http://evil.example/raw.png" onerror="alert(1)"> raw html',
  '',
  `![pixel](${PIXEL})`,
  '',
  '<script>window.hacked = 1</script><iframe src="https://x"></iframe><style>body{}</style>',
  '',
  '<p style="color:red" onclick="alert(1)">styled</p>',
  '',
  'A [site](https://example.com).',
  '',
].join('\n');

function remoteImages(root: ParentNode): Element[] {
  return Array.from(root.querySelectorAll('img')).filter((img) => !(img.getAttribute('src') ?? '').startsWith('data:image/'));
}

function assertSafe(app: HTMLElement): void {
  const root = q(app, '[data-testid="transcript"]');
  assert.deepEqual(
    remoteImages(root).map((i) => i.outerHTML),
    [],
  );
  const links = Array.from(root.querySelectorAll('a.image-link'), (a) => [a.getAttribute('href'), a.textContent]);
  assert.deepEqual(links, [
    ['https://evil.example/track.png', 'diagram (https://evil.example/track.png)'],
    ['//cdn.example/x.gif', '//cdn.example/x.gif'],
    ['images/local.png', 'rel (images/local.png)'],
    ['http://evil.example/raw.png', 'http://evil.example/raw.png'],
  ]);
  assert.equal(root.querySelectorAll('img').length, 1, 'the embedded data image stays an image');
  assert.equal(root.querySelectorAll('script, iframe, style, [style], [onclick], [onerror]').length, 0);
  assert.equal((globalThis as { hacked?: number }).hacked, undefined);
}

describe('webview: no remote resources, everything sanitized', function () {
  this.timeout(20_000); // jsdom parses each rendered block slowly
  it('turns remote images into links while streaming', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const d = deltas();
    t.receive(d({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: '' } }));
    for (let i = 0; i < MARKDOWN.length; i += 11) {
      t.receive(d({ type: 'text/append', id: 'a1', text: MARKDOWN.slice(i, i + 11) }));
      t.frame();
      assert.deepEqual(remoteImages(t.root), [], 'no remote <img> at any point of the stream');
    }
    t.receive(d({ type: 'text/done', id: 'a1' }));
    t.frame();
    assertSafe(t.root);
  });

  it('turns remote images into links when a stored task is rendered from a snapshot', () => {
    const t = makeApp();
    t.receive(snapshot([{ kind: 'assistant', id: 'a1', text: MARKDOWN, done: true }]));
    t.frame();
    assertSafe(t.root);
  });

  it('opens links through the host instead of navigating', () => {
    const t = makeApp();
    t.receive(snapshot([{ kind: 'assistant', id: 'a1', text: MARKDOWN, done: true }]));
    t.frame();
    const link = q(t.root, 'a[href="https://example.com"]');
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(event);
    assert.equal(event.defaultPrevented, true);
    assert.deepEqual(t.posted.at(-1), { type: 'link/open', href: 'https://example.com' });
    click(q(t.root, 'a.image-link'));
    assert.deepEqual(t.posted.at(-1), { type: 'link/open', href: 'https://evil.example/track.png' });
  });

  it('shows user text as text, never as HTML', () => {
    const t = makeApp();
    t.receive(snapshot([{ kind: 'user', id: 'u1', text: '<img src="https://x/y.png"> **not bold**' }]));
    t.frame();
    assert.equal(t.root.querySelectorAll('img').length, 0);
    assert.equal(q(t.root, '[data-testid="user-message"]').textContent, '<img src="https://x/y.png"> **not bold**');
  });
});

describe('webview: sanitizer', () => {
  it('returns a fragment of an inert document, so nothing loads before images are rewritten', async () => {
    const { sanitizeHtml } = await import('../../../media/markdown/sanitize.js');
    const fragment = sanitizeHtml('<p>x</p><img src="https://evil.example/a.png">');
    assert.notEqual(fragment.ownerDocument, document);
    assert.equal(fragment.querySelectorAll('img').length, 0);
    assert.equal(fragment.querySelector('a.image-link')?.getAttribute('href'), 'https://evil.example/a.png');
  });
});
