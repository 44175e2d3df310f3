// "Always" on a web_fetch card covers that URL's origin (scheme, host, port) and nothing else:
// a grant given for https://example.com lets another page there run unasked, never another
// site, scheme or port, and a grant kept from before origins covers no URL. The card says which
// origin its "Always" buttons cover.
import assert from 'node:assert/strict';
import { grantCovers, grantFor } from '../../../src/kernel/grants.js';
import type { Grant, ToolIntent, Workspace } from '../../../src/kernel/index.js';
import { intentItem } from '../../../src/host/presenter/event-mapper.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { createPolicy } from '../../../src/tools/index.js';
import { webFetchTool } from '../../../src/tools/web/web-fetch.js';
import { scratchDir } from '../../support/scratch.js';
import { proposedIntent } from './helpers.js';

const fetchOf = (url: string): ToolIntent => ({ ...proposedIntent('web_fetch', { url }), risk: 'network' });

describe('web_fetch grants cover one origin', () => {
  let ws: Workspace;
  before(async () => {
    ws = await createNodeWorkspace(scratchDir('web-grants'));
  });

  const decide = async (url: string, grants: Grant[]) =>
    (await createPolicy({ autoApprove: ['read'] }).decide(fetchOf(url), { tool: webFetchTool, grants, workspace: ws })).type;

  for (const scope of ['task', 'workspace'] as const) {
    it(`a ${scope} grant for https://example.com lets that site run unasked, and no other`, async () => {
      const grant = grantFor(fetchOf('https://example.com/docs/page?x=1'), scope);
      assert.deepEqual(grant, { tool: 'web_fetch', origin: 'https://example.com', scope });
      assert.equal(await decide('https://example.com/other', [grant]), 'allow');
      assert.equal(await decide(' HTTPS://EXAMPLE.com:443/x ', [grant]), 'allow', 'the same origin, written differently');
      for (const other of [
        'https://evil.example.net/',
        'https://example.com.evil.net/',
        'https://sub.example.com/',
        'http://example.com/',
        'https://example.com:8443/',
        'https://example.co/',
      ]) {
        assert.equal(await decide(other, [grant]), 'ask', other);
      }
    });
  }

  it('in every sandbox mode, with every command approved, the grant still covers its origin only and sandboxes nothing', async () => {
    const grant = grantFor(fetchOf('https://example.com/'), 'task');
    for (const sandbox of ['unasked', 'everything', 'off'] as const) {
      const policy = createPolicy({ autoApprove: ['read', 'write', 'execute'], approveUnclassified: true, sandbox });
      const ctx = { tool: webFetchTool, grants: [grant], workspace: ws };
      const evil = await policy.decide(fetchOf('https://evil.example.net/'), ctx);
      assert.equal(evil.type, 'ask', `mode ${sandbox}`);
      const same = await policy.decide(fetchOf('https://example.com/next'), ctx);
      assert.equal(same.type, 'allow', `mode ${sandbox}`);
      assert.equal('sandbox' in same, false, `mode ${sandbox}: a fetch runs no command`);
    }
  });

  it('a grant with no origin (kept from before) covers no URL; text that is no URL is granted as written', async () => {
    assert.equal(await decide('https://example.com/', [{ tool: 'web_fetch', scope: 'workspace' }]), 'ask');
    const odd = grantFor(fetchOf('not a url'), 'task');
    assert.equal(odd.origin, 'not a url');
    assert.equal(grantCovers(odd, fetchOf('not a url')), true);
    assert.equal(grantCovers(odd, fetchOf('https://example.com/')), false);
  });

  it('the card names the origin its "Always" buttons cover', () => {
    const item = intentItem({ ...fetchOf('https://example.com/docs/page'), status: 'awaiting_approval' });
    assert.equal(item.grantOrigin, 'https://example.com');
    assert.equal(intentItem(proposedIntent('read_file', { path: 'a.ts' })).grantOrigin, undefined);
  });
});
