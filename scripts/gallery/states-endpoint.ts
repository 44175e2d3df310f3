// The gallery's endpoint errors (issue 34, problem 7): keel.baseUrl written without its scheme,
// named as what it is on the banner and the welcome's key line (no "No API key is set"), and a
// run that failed on a refused port, saying which URL and the cause at once.
import { type GalleryState, HINTS, snap, user } from './states.js';

const NO_SCHEME =
  'keel.baseUrl must start with http:// or https:// (it is "localhost:11434/v1"); nothing was sent. Did you mean "http://localhost:11434/v1"?';

export const ENDPOINT_STATES: GalleryState[] = [
  {
    id: 'endpoint-no-scheme',
    title: 'keel.baseUrl without http://',
    snapshot: snap([], {
      taskId: undefined,
      status: 'idle',
      tasks: { tasks: [] },
      hints: { ...HINTS, model: { provider: 'openai-compatible', model: 'qwen3-coder', vision: false }, endpoint: NO_SCHEME },
    }),
  },
  {
    id: 'endpoint-refused',
    title: 'Nothing listens on the port',
    snapshot: snap(
      [
        user,
        {
          kind: 'notice',
          id: 'n1',
          level: 'error',
          text: 'Could not connect to http://127.0.0.1:11434/v1: the connection was refused (ECONNREFUSED). Is the model server running, on that port?',
          action: { label: 'Show Log', message: 'log/show' },
          retry: true,
        },
      ],
      { status: 'failed' },
    ),
  },
];
