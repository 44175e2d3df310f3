// Where VS Code keeps its bundled ripgrep. The layout differs between desktop builds (asar),
// older builds (vscode-ripgrep) and code-server, so every known place is tried in order.
// No vscode import: the host passes `vscode.env.appRoot`.
import { promises as fs, constants } from 'node:fs';
import * as path from 'node:path';

export function ripgrepCandidates(appRoot: string, platform: NodeJS.Platform = process.platform, arch: string = process.arch): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  const out: string[] = [];
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    for (const pkg of [path.join('@vscode', 'ripgrep'), 'vscode-ripgrep']) {
      out.push(path.join(appRoot, modules, pkg, 'bin', exe));
    }
    // Newer builds ship every platform's binary in one package, one folder per os-arch.
    out.push(path.join(appRoot, modules, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, exe));
  }
  return out;
}

/** The first candidate that exists and can be executed, or undefined. */
export async function findRipgrep(
  appRoot: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): Promise<string | undefined> {
  for (const candidate of ripgrepCandidates(appRoot, platform, arch)) {
    try {
      await fs.access(candidate, platform === 'win32' ? constants.F_OK : constants.X_OK);
      return candidate;
    } catch {
      // try the next place
    }
  }
  return undefined;
}
