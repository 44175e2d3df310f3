// `npm start`: Keel in a real VS Code (code-server) on a fresh copy of examples/failing-tests.
//   npm start                      uses your provider key (ANTHROPIC_API_KEY / OPENAI_API_KEY,
//                                  or Keel: Set API Key) and the real API
//   npm start -- --stand-in        plays the scripted bug fix from the e2e tests instead (it says it is
//                                  a stand-in of one task, and follows the mode picked)
//   npm start -- --folder <path>   opens <path> itself instead of a copy of the example
//   KEEL_PORT=8080 npm start       a fixed port (default: a free one)
import { copyWorkspace, startCodeServer } from '../test/support/code-server.js';
import { packageVsix } from './vsix.js';
import { startModelServer } from '../test/support/model-server.js';
import { standInModel } from '../test/e2e/lib/fixer-model.js';
import { standInProfile } from './stand-in.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);

async function main(): Promise<void> {
  console.log('building and packaging Keel…');
  const vsix = await packageVsix();
  const folder = value('--folder') ?? copyWorkspace('examples/failing-tests', true);
  const standIn = flag('--stand-in') ? await startModelServer(standInModel()) : undefined;
  const profile = standIn ? standInProfile(standIn.openaiBaseURL) : { settings: {}, env: {} };
  const server = await startCodeServer({
    folder,
    extensions: [vsix],
    port: process.env.KEEL_PORT ? Number(process.env.KEEL_PORT) : undefined,
    settings: profile.settings,
    env: profile.env,
  });
  console.log(
    `\nKeel is running in VS Code at\n\n  ${server.url}\n\nworkspace: ${folder}${standIn ? `\nmodel: the scripted stand-in at ${standIn.url}` : ''}\nCtrl+C to stop.`,
  );
  const stop = async () => {
    await server.stop();
    await standIn?.close();
    process.exit(0);
  };
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.process.exited;
  console.error(`code-server exited:\n${server.process.output().slice(-3000)}`);
  await standIn?.close();
  process.exit(1);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
