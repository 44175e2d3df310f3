// The ports a background process printed: vite's coloured Local line, express's and Python's
// phrases, a URL split across two chunks, and output that names no port.
import assert from 'node:assert/strict';
import { PortScanner, parsePorts } from '../../../src/node/port-scan.js';

describe('port scan', () => {
  it('reads a URL on a local host, colour codes and all', () => {
    const vite = '\u001b[32m➜\u001b[39m  \u001b[1mLocal\u001b[22m:   \u001b[36mhttp://localhost:\u001b[1m5173\u001b[22m/\u001b[39m\n';
    assert.deepEqual(parsePorts(vite), [5173]);
    assert.deepEqual(parsePorts('Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...'), [8000]);
    assert.deepEqual(parsePorts('ready at https://127.0.0.1:8443/app'), [8443]);
    assert.deepEqual(parsePorts('open http://[::1]:4000'), [4000]);
  });

  it('reads the phrases servers print', () => {
    assert.deepEqual(parsePorts('Server listening on :3000'), [3000]);
    assert.deepEqual(parsePorts('Listening on port 8080'), [8080]);
    assert.deepEqual(parsePorts('app running at 0.0.0.0:4321'), [4321]);
  });

  it('keeps the order first printed and names each port once', () => {
    assert.deepEqual(parsePorts('listening on :3001\nhttp://localhost:3000/\nlistening on :3001'), [3001, 3000]);
  });

  it('names no port in output that has none, nor a remote URL nor a year', () => {
    assert.deepEqual(parsePorts('Compiled 12 files in 2024 ms\nwatching for changes'), []);
    assert.deepEqual(parsePorts('fetching https://registry.npmjs.org:443/x'), []);
    assert.deepEqual(parsePorts('port 99999 is out of range'), []);
  });

  it('reads a line split across chunks once whole', () => {
    const scanner = new PortScanner();
    scanner.push('Local: http://localhost:51');
    scanner.push('73/\n');
    assert.deepEqual(scanner.found(), [5173]);
    const unfinished = new PortScanner();
    unfinished.push('listening on :9090');
    assert.deepEqual(unfinished.found(), [9090], 'the last line without a newline counts');
  });
});
