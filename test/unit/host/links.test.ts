import assert from 'node:assert/strict';
import { checkLink, openLinkAfterConfirm, type LinkOpener } from '../../../src/host/session/links.js';

function opener(answer: boolean) {
  const calls = { confirmed: [] as string[], opened: [] as string[], logged: [] as string[] };
  const o: LinkOpener = {
    confirm: async (shown) => {
      calls.confirmed.push(shown);
      return answer;
    },
    open: async (url) => void calls.opened.push(url),
    log: (m) => void calls.logged.push(m),
  };
  return { o, calls };
}

describe('host/links: a transcript link opens only after a confirmation showing it whole', () => {
  it('never opens (nor asks about) command:, vscode:, javascript:, file: or data: links', async () => {
    for (const href of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'command:workbench.action.terminal.new',
      'command:_workbench.downloadResource?%5B%22x%22%5D',
      'vscode:extension/evil.publisher',
      'vscode-insiders://evil',
      'file:///etc/passwd',
      'data:text/html,<script>1</script>',
      'mailto:someone@example.com?body=secrets',
      '//evil.example/relative',
      'images/local.png',
      `https://example.com/${'a'.repeat(5000)}`,
    ]) {
      const { o, calls } = opener(true);
      assert.equal(await openLinkAfterConfirm(href, o), false, href);
      assert.deepEqual(calls.confirmed, [], href);
      assert.deepEqual(calls.opened, [], href);
      assert.equal(calls.logged.length, 1, href);
    }
  });

  it('opens a web link only when the user agrees to the URL shown', async () => {
    const no = opener(false);
    assert.equal(await openLinkAfterConfirm('https://example.com/docs?q=1', no.o), false);
    assert.deepEqual(no.calls.confirmed, ['https://example.com/docs?q=1']);
    assert.deepEqual(no.calls.opened, []);

    const yes = opener(true);
    assert.equal(await openLinkAfterConfirm('http://example.com/a b', yes.o), true);
    assert.deepEqual(yes.calls.opened, ['http://example.com/a%20b'], 'what is opened is what was shown');
    assert.deepEqual(yes.calls.confirmed, yes.calls.opened);
  });

  it('shows look-alike hosts and hidden characters for what they are', async () => {
    const { o, calls } = opener(false);
    await openLinkAfterConfirm('https://аpple.com/lоgin', o); // Cyrillic а and о
    assert.match(calls.confirmed[0]!, /^https:\/\/xn--/);
    assert.match(calls.confirmed[0]!, /%D0%BE/);
    assert.equal(checkLink('https://ex\u202eample.com').ok, false, 'a bidi override in the host is no URL at all');
  });
});
