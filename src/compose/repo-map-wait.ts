// How long a task waits for its repo map. The map is built from the code index, and a large or
// hostile workspace can take a long time to index; the first request (and a fold) waits at most
// REPO_MAP_WAIT_MS and then goes without it, the map `pending` (the prefix says so). The build
// goes on meanwhile, and each later turn asks again without waiting: the first turn that finds
// it done gets it (the kernel logs it then, reason 'late').
import type { CodeIntel, RepoMap, RepoMapBuilder } from '../kernel/index.js';
import { taskFocus } from './memory-index.js';

/** The longest a request waits for the repo map. */
const REPO_MAP_WAIT_MS = 500;

const PENDING: RepoMap = { text: '', files: 0, totalFiles: 0, pending: true };

interface Build {
  promise: Promise<RepoMap | undefined>;
  /** Set once the build ended: its map, or `failed` (an error, or its run was stopped). */
  done?: { map: RepoMap | undefined } | 'failed';
}

/** The repo map of the task's prefix, focused on the files and names the task mentions so far, waited for at most `waitMs`. */
export function waitingRepoMap(intel: CodeIntel, waitMs = REPO_MAP_WAIT_MS): RepoMapBuilder {
  let last: Build | undefined;
  return async (state, budgetTokens, signal, reason) => {
    if (reason !== 'late' || !last || last.done === 'failed') {
      const focus = taskFocus(state);
      const focusPaths = focus.paths.map((p) => p.replace(/^\.\//, ''));
      last = track(intel.repoMap!({ focusPaths, focusText: focus.text, budgetTokens }, signal), signal);
    }
    return within(last, reason === 'late' ? 0 : waitMs);
  };
}

function track(promise: Promise<RepoMap | undefined>, signal: AbortSignal): Build {
  const build: Build = { promise };
  promise.then(
    (map) => {
      build.done = signal.aborted ? 'failed' : { map };
    },
    () => {
      build.done = 'failed';
    },
  );
  return build;
}

/** The build's map if it ends within `ms`; pending otherwise. A failed build is thrown (the kernel keeps what it had). */
async function within(build: Build, ms: number): Promise<RepoMap | undefined> {
  if (!build.done && ms > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    // track's handlers were added first, so they have run when this race ends on the build.
    await Promise.race([build.promise.then(ended, ended), timeout]);
    clearTimeout(timer);
  }
  if (!build.done) return PENDING;
  if (build.done === 'failed') throw new Error('the repo map could not be built');
  return build.done.map;
}

const ended = () => undefined;
