// The hooks every scenario file shares: code-server and the packaged VSIX made ready before the
// first test; after each test, a failed one's screenshot and diagnostics, then its session closed.
// A scenario starts its session through the returned `start`, so the hooks know what to close.
import { ensureCodeServer, packageVsix } from '../../support/code-server.js';
import { dumpDiagnostics } from './diagnostics.js';
import { KeelSession, type SessionOptions } from './keel-session.js';

export interface Sessions {
  start(options: SessionOptions): Promise<KeelSession>;
}

/** Registers the shared hooks in the calling describe block. */
export function keelSessions(): Sessions {
  let session: KeelSession | undefined;

  before(async function () {
    this.timeout(900_000);
    await Promise.all([ensureCodeServer(), packageVsix()]);
  });

  afterEach(async function () {
    if (session && this.currentTest?.state === 'failed') {
      await session.screenshot('failure', { look: false }).catch(() => undefined);
      dumpDiagnostics(session);
    }
    await session?.close();
    session = undefined;
  });

  return { start: async (options) => (session = await KeelSession.start(options)) };
}
