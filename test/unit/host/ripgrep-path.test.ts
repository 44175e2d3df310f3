import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import * as path from 'node:path';
import { findRipgrep, ripgrepCandidates } from '../../../src/host/settings/ripgrep-path.js';
import { scratchDir } from '../../support/scratch.js';

describe('host/ripgrep-path', () => {
  it('tries node_modules, then the asar-unpacked folder, then the old package name', () => {
    const c = ripgrepCandidates('/app', 'linux');
    assert.equal(c[0], path.join('/app', 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
    assert.ok(c.includes(path.join('/app', 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', 'rg')));
    assert.ok(c.some((p) => p.includes('vscode-ripgrep')));
    assert.ok(c.includes(path.join('/app', 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `linux-${process.arch}`, 'rg')));
    assert.ok(ripgrepCandidates('/app', 'darwin', 'arm64').some((p) => p.endsWith(path.join('darwin-arm64', 'rg'))));
    assert.ok(ripgrepCandidates('/app', 'win32').every((p) => p.endsWith('rg.exe')));
  });

  it('finds the executable that exists', async () => {
    const root = scratchDir('rg');
    const dir = path.join(root, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'rg'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'rg'), 0o755);
    assert.equal(await findRipgrep(root, 'linux'), path.join(dir, 'rg'));
    assert.equal(await findRipgrep(path.join(root, 'none'), 'linux'), undefined);
  });
});
