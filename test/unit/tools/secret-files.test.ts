// search_files and list_files leave out the files read_file asks about before reading because
// they may hold secrets (.env…): one predicate, on every search engine (ripgrep and the walking
// fallback; a host that gives neither has no search).
import assert from 'node:assert/strict';
import { findRipgrep } from '../../../src/node/ripgrep.js';
import { createPolicy } from '../../../src/tools/policy/create-policy.js';
import { listFilesTool } from '../../../src/tools/list-files.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { searchFilesTool } from '../../../src/tools/search-files.js';
import { context, tempWorkspace } from './helpers.js';

const KEY = 'sk-ant-api03-REALKEYDONOTLEAK0123456789';
const files = {
  '.env': `ANTHROPIC_API_KEY=${KEY}\nDB_PASSWORD=hunter2\n`,
  '.env.local': `OPENAI_API_KEY=${KEY}\n`,
  'config/.env.production': `ANTHROPIC_API_KEY=${KEY}\n`,
  '.ENV': `ANTHROPIC_API_KEY=${KEY}\n`,
  '.env.example': 'ANTHROPIC_API_KEY=put-your-key-here\n',
  'src/app.ts': 'const key = process.env.ANTHROPIC_API_KEY;\n',
};

const engines = [
  { name: 'ripgrep', opts: {} },
  { name: 'walking fallback', opts: { rgPath: null } },
] as const;

describe('secret files stay out of search_files and list_files', () => {
  for (const engine of engines) {
    it(`search_files (${engine.name}) returns no line of a .env file`, async function () {
      if (engine.name === 'ripgrep' && !(await findRipgrep())) {
        if (process.env.CI) assert.fail('rg is not on PATH');
        this.skip();
      }
      const w = await tempWorkspace(files, engine.opts);
      try {
        const ctx = context(w.ws);
        for (const query of [KEY, 'REALKEY', 'hunter2', 'DB_PASSWORD']) {
          const r = await searchFilesTool.execute({ query }, ctx);
          assert.match(r.content, /^No matches/, `${query}: ${r.content}`);
        }
        const named = await searchFilesTool.execute({ query: 'ANTHROPIC_API_KEY' }, ctx);
        assert.ok(!named.content.includes(KEY));
        assert.deepEqual([...named.content.matchAll(/^(\S+)$/gm)].map((m) => m[1]).sort(), ['.env.example', 'src/app.ts']);
        for (const args of [
          { query: 'KEY', path: 'config' },
          { query: 'KEY', glob: '.env*' },
          { query: 'KEY', glob: '**/.env*' },
        ]) {
          const r = await searchFilesTool.execute(args, ctx);
          assert.ok(!r.content.includes(KEY), JSON.stringify(args));
        }
      } finally {
        await w.cleanup();
      }
    });
  }

  it('list_files leaves them out too, and keeps templates (.env.example)', async () => {
    const w = await tempWorkspace(files);
    try {
      const r = await listFilesTool.execute({ recursive: true }, context(w.ws));
      assert.deepEqual(r.content.split('\n'), ['.env.example', 'config/', 'src/', 'src/app.ts']);
    } finally {
      await w.cleanup();
    }
  });

  it('is the same rule read_file is asked about under: what is left out always asks', async () => {
    const w = await tempWorkspace(files);
    try {
      const policy = createPolicy({ autoApprove: ['read'] });
      const ctx = { tool: readFileTool, grants: [], workspace: w.ws };
      const verdict = async (path: string) =>
        (
          await policy.decide(
            {
              id: 'i',
              tool: 'read_file',
              input: { path },
              providerRef: 'p',
              summary: path,
              risk: 'read',
              paths: [path],
              status: 'proposed',
            },
            ctx,
          )
        ).type;
      for (const secret of ['.env', '.env.local', 'config/.env.production']) assert.equal(await verdict(secret), 'ask', secret);
      for (const plain of ['.env.example', 'src/app.ts']) assert.equal(await verdict(plain), 'allow', plain);
    } finally {
      await w.cleanup();
    }
  });
});
