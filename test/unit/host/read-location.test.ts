// A click on a finished read card opens the file at the lines its observation says were read.
import assert from 'node:assert/strict';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { readLocation } from '../../../src/host/session/read-location.js';

const observation = (intentId: string, facts?: object): RuntimeEvent =>
  ({
    type: 'observation',
    seq: 1,
    runId: 'r',
    time: 0,
    observation: { intentId, ok: true, content: '…', ...(facts ? { facts } : {}) },
  }) as RuntimeEvent;

describe('read location of a finished read card', () => {
  it('is the path and the lines the read returned', () => {
    const events = [observation('i1', { read: { path: 'src/a.ts', hash: 'h', from: 40, to: 80, total: 200 } }), observation('i2')];
    assert.deepEqual(readLocation(events, 'i1'), { path: 'src/a.ts', from: 40, to: 80 });
  });

  it('is nothing for a call that read no file, or has no observation yet', () => {
    const events = [observation('i2')];
    assert.equal(readLocation(events, 'i2'), undefined);
    assert.equal(readLocation(events, 'i3'), undefined);
  });
});
