import assert from 'node:assert/strict';
import { HostMessageSchema } from '../../../src/protocol/index.js';
import { contentHash } from '../../../src/kernel/text.js';
import { initialState } from '../../../src/kernel/index.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { EventFactory } from './events.js';
import { FakeClock } from './fake-clock.js';

describe('presenter: attachments and the header', () => {
  it("a user message's attachments become chips (kind, label, cut) without their content; images stay for thumbnails", () => {
    const f = new EventFactory();
    const presenter = new Presenter({ clock: new FakeClock(), post: () => undefined, kernel: () => f.state, contextWindow: 200_000 });
    const secretish = 'const a = 1; // the file content stays in the log';
    const image = { mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
    presenter.load(
      [
        f.event({
          type: 'user_message',
          text: 'look',
          images: [image],
          attachments: [
            { kind: 'file', label: 'src/a.ts', path: 'src/a.ts', contentHash: contentHash(secretish), content: secretish, cutChars: 7 },
          ],
        }),
      ],
      't1',
    );
    const snap = presenter.snapshot();
    assert.deepEqual(snap.items[0], {
      kind: 'user',
      id: snap.items[0]!.id,
      text: 'look',
      attachments: [{ kind: 'file', label: 'src/a.ts', cutChars: 7 }],
      images: [image],
    });
    assert.ok(!JSON.stringify(snap).includes('stays in the log'), 'the content is not sent to the view');
    assert.ok(HostMessageSchema.safeParse(snap).success);
  });

  it('posts a change of model or auto-approve classes (hints compared whole)', () => {
    const posts: unknown[] = [];
    const clock = new FakeClock();
    const presenter = new Presenter({ clock, post: (m) => posts.push(m), kernel: initialState, contextWindow: 200_000 });
    presenter.setHints({ model: { provider: 'anthropic', model: 'claude-sonnet-5-5', vision: true }, autoApprove: ['read'] });
    clock.advance(16);
    const count = posts.length;
    assert.ok(count > 0);
    presenter.setHints({ autoApprove: ['read', 'execute'] });
    clock.advance(16);
    assert.ok(posts.length > count, 'a new auto-approve set is posted');
    assert.deepEqual(presenter.snapshot().hints.autoApprove, ['read', 'execute']);
  });
});
