// A `keel run` in a process of its own for the kill -9 test: the scripted model starts a server
// with start_process, then checks a page of it that never loads, so both the server and the
// browser are running when the test kills this process. Argument: the workspace; PORT in the
// environment is the server's port.
import { ScriptedProvider, textTurn, toolTurn } from '../../src/providers/scripted.js';
import { runScriptedTask } from './scripted-task.js';

const [ws] = process.argv.slice(2);
const port = process.env.PORT;
const provider = new ScriptedProvider([
  toolTurn('start_process', { name: 'web', command: 'node server.js' }),
  toolTurn('browser_check', { url: `http://127.0.0.1:${port}/never`, timeoutMs: 60_000 }),
  textTurn('done'),
]);
void runScriptedTask(ws!, ['--approve', 'all', 'check the page'], provider).then((r) => {
  process.stdout.write(r.stderr);
});
