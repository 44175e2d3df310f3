// Finds a Chromium the machine already has, as ripgrep is found: on PATH by its usual names, then
// at the places Debian, Ubuntu's snap and macOS put it. Keel never downloads a browser; when none
// is found, the one sentence the tool answers with says how to install it.
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const FIXED = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export const CHROMIUM_MISSING =
  'No Chromium browser was found on this machine (looked on PATH for chromium, chromium-browser and google-chrome). ' +
  'Install one to check pages — on Debian or Ubuntu: apt-get install chromium — then run the task again.';

/** The first executable candidate, or undefined. `candidates` replaces the search (tests point it anywhere). */
export async function findChromium(candidates?: readonly string[]): Promise<string | undefined> {
  const onPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .flatMap((dir) => NAMES.map((n) => path.join(dir, n)));
  for (const candidate of candidates ?? [...onPath, ...FIXED]) if (await executable(candidate)) return candidate;
  return undefined;
}

async function executable(p: string): Promise<boolean> {
  return fs.access(p, constants.X_OK).then(
    () => true,
    () => false,
  );
}
