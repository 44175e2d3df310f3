// The Workspace port on VS Code: diagnostics from the language services, command output
// captured exactly and mirrored into the Keel terminal, writes through WorkspaceEdit, search.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { keelApi, until, workspaceRoot } from './keel-api.js';

describe('Keel Workspace port on VS Code', function () {
  this.timeout(90_000);

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('reads diagnostics the JSON language service reports', async () => {
    const api = await keelApi();
    const file = path.join(workspaceRoot().fsPath, 'broken.json');
    writeFileSync(file, '{ "name": "x",, "b": }\n');
    const ws = api.workspace!;
    const diags = await until(
      'JSON diagnostics',
      async () => {
        const d = await ws.diagnostics('broken.json');
        return d.length > 0 ? d : undefined;
      },
      15_000,
    );
    assert.equal(diags[0]!.path, 'broken.json');
    assert.ok(
      diags.some((d) => d.severity === 'error'),
      JSON.stringify(diags),
    );
    assert.ok(diags.every((d) => d.line >= 1 && d.column >= 1));
    const all = await ws.diagnostics();
    assert.ok(
      all.some((d) => d.path === 'broken.json'),
      'workspace-wide diagnostics include the file',
    );
  });

  it('withholds the editor’s credential variables from a command, but those keel.commands.passEnv lists', async () => {
    const api = await keelApi();
    const slack = ['xoxb', '123456789012', '1234567890123', 'AbCdEfGhIjKlMnOpQrStUvWx'].join('-');
    const added = { GITHUB_TOKEN: 'gh-from-the-editor', TEAM_HOOK: slack, KEEL_PASSED_TOKEN: 'passed-by-the-user', HARMLESS: 'yes' };
    const saved = Object.fromEntries(Object.keys(added).map((k) => [k, process.env[k]]));
    Object.assign(process.env, added);
    try {
      const r = await api.workspace!.runProcess('printenv', {
        timeoutMs: 10_000,
        signal: new AbortController().signal,
        maxCaptureChars: 200_000,
      });
      const out = r.stdout.head + r.stdout.tail;
      assert.match(out, /^HARMLESS=yes$/m);
      assert.match(out, /^KEEL_PASSED_TOKEN=passed-by-the-user$/m, 'the user setting passes it');
      assert.ok(!out.includes('gh-from-the-editor') && !out.includes(slack), 'credentials stay out');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('captures a command’s output exactly and shows it in the Keel terminal', async () => {
    const api = await keelApi();
    const ws = api.workspace!;
    const controller = new AbortController();
    const live: string[] = [];
    const expected = 'line one\nline two\r\nünïcödé\ttab\n\nlast';
    const result = await ws.runProcess(`printf '%s' '${expected}'; printf 'to stderr' >&2`, {
      timeoutMs: 10_000,
      signal: controller.signal,
      maxCaptureChars: 100_000,
      onOutput: (chunk) => live.push(chunk),
    });
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout.head + result.stdout.tail, expected);
    assert.equal(result.stdout.omittedChars, 0);
    assert.equal(result.stderr.head, 'to stderr');
    assert.equal(live.join('').length, expected.length + 'to stderr'.length);
    const terminal = await until('the Keel terminal', () => vscode.window.terminals.find((t) => t.name === 'Keel'));
    assert.ok(terminal);
  });

  it('runs commands with the same shell and child environment as the CLI: bash, no keys, no BASH_ENV', async () => {
    const api = await keelApi();
    const ws = api.workspace!;
    const key = 'sk-ant-integration-0123456789';
    const saved = { ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY, KEY_COPY: process.env.KEY_COPY, BASH_ENV: process.env.BASH_ENV };
    const rc = path.join(ws.root, 'evil-rc.sh');
    writeFileSync(rc, 'echo SOURCED\n');
    Object.assign(process.env, { ANTHROPIC_API_KEY: key, KEY_COPY: key, BASH_ENV: rc });
    try {
      const result = await ws.runProcess('echo "shell=$BASH_VERSION"; printenv', {
        timeoutMs: 10_000,
        signal: new AbortController().signal,
        maxCaptureChars: 200_000,
      });
      const out = result.stdout.head + result.stdout.tail;
      assert.equal(ws.shell?.name, 'bash');
      assert.match(out, /^shell=\d/);
      assert.ok(!out.includes(key), 'the key reached the command');
      assert.doesNotMatch(out, /SOURCED|BASH_ENV=/);
    } finally {
      rmSync(rc, { force: true });
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('never lets the file on disk be half-written while an edit lands', async () => {
    const api = await keelApi();
    const ws = api.workspace!;
    const file = path.join(ws.root, 'watched.txt');
    const first = 'first version\n'.repeat(2000);
    const second = 'second version\n'.repeat(2000);
    writeFileSync(file, first);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
    const seen = new Set<string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        seen.add(readFileSync(file, 'utf8'));
        await new Promise((r) => setImmediate(r));
      }
    })();
    await ws.writeFile('watched.txt', new TextEncoder().encode(second));
    watching = false;
    await watcher;
    seen.add(readFileSync(file, 'utf8'));
    assert.deepEqual(
      [...seen].filter((s) => s !== first && s !== second).map((s) => s.length),
      [],
      'a partial file was visible',
    );
    assert.ok(seen.has(second));
  });

  it('writes and creates files through WorkspaceEdit, byte for byte', async () => {
    const api = await keelApi();
    const ws = api.workspace!;
    const crlf = new TextEncoder().encode('a\r\nb\r\nc\r\n');
    await ws.writeFile('made/by/keel.txt', crlf);
    assert.deepEqual(new Uint8Array(readFileSync(path.join(ws.root, 'made', 'by', 'keel.txt'))), crlf);
    const lf = new TextEncoder().encode('x\ny\n');
    await ws.writeFile('made/by/keel.txt', lf);
    assert.deepEqual(new Uint8Array(readFileSync(path.join(ws.root, 'made', 'by', 'keel.txt'))), lf);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === path.join(ws.root, 'made', 'by', 'keel.txt'));
    assert.ok(doc, 'the overwrite went through a document (WorkspaceEdit)');
    assert.equal(doc.getText(), 'x\ny\n');
    await until('the document to show as saved', () => !doc.isDirty);
    await assert.rejects(ws.writeFile('../outside.txt', lf), /outside/);
  });

  it('searches with VS Code’s own ripgrep', async () => {
    const api = await keelApi();
    assert.ok(api.rgPath, 'ripgrep was not found inside VS Code');
    const files = ['README.md', 'package.json', 'src/price.js', 'test/price.test.js'];
    const result = await api.workspace!.search({ pattern: 'function discount', files, maxMatches: 10 }, new AbortController().signal);
    assert.equal(result.engine, 'ripgrep');
    assert.deepEqual(
      result.matches.map((m) => m.path),
      ['src/price.js'],
    );
  });
});
