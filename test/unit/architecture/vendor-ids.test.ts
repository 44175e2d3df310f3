// Issue 24 item 5: vendor ids are defined in one file. A quoted vendor id (or the CLI's demo
// provider) anywhere in src/ outside src/providers means a list or a decision written twice:
// hosts read the registry (src/providers/registry.ts) instead.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI_PROVIDER_IDS } from '../../../src/providers/registry.js';

const ROOT = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|js|mjs)$/.test(d.name) ? [full] : [];
  });
}

/** Lines holding a vendor id as a whole string literal ('openai', "anthropic", `scripted`). */
function vendorLiterals(source: string, ids: readonly string[]): number[] {
  const literal = new RegExp(`(['"\`])(${ids.join('|')})\\1`);
  // An import of a package named like a vendor ('openai', the SDK) is not a vendor id.
  const packageImport = /^\s*(import|export)\b.*\bfrom\s+['"][^'"]+['"]/;
  return source
    .split('\n')
    .flatMap((line, i) => (literal.test(line) && !packageImport.test(line) && !line.trim().startsWith('//') ? [i + 1] : []));
}

describe('vendor ids live in the provider registry only (issue 24 item 5)', () => {
  it('no file in src/ outside src/providers quotes a vendor id', () => {
    const outside = sourceFiles(path.join(ROOT, 'src')).filter((f) => !f.startsWith(path.join(ROOT, 'src', 'providers') + path.sep));
    const found = outside.flatMap((file) =>
      vendorLiterals(fs.readFileSync(file, 'utf8'), CLI_PROVIDER_IDS).map((line) => `${path.relative(ROOT, file)}:${line}`),
    );
    assert.deepEqual(found, [], `vendor ids written outside src/providers/registry.ts:\n${found.join('\n')}`);
  });

  it('the scan sees a quoted id in a decision, a list and a type, and not an SDK import', () => {
    const ids = ['anthropic', 'openai'];
    assert.deepEqual(vendorLiterals("if (p === 'openai') x();", ids), [1]);
    assert.deepEqual(vendorLiterals('const all = ["anthropic", "openai"];', ids), [1]);
    assert.deepEqual(vendorLiterals('type P =\n  | `anthropic`;', ids), [2]);
    assert.deepEqual(vendorLiterals("import OpenAI from 'openai';\nconst x = 'openai-compatible';", ids), []);
  });
});
