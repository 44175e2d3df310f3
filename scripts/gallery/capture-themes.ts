// Captures the --vscode-* variables a real VS Code gives Keel's webview in each theme the gallery
// shows (light, dark, high contrast), from code-server with Keel installed, into
// scripts/gallery/themes/<theme>.json. Run it again when code-server is upgraded:
//   node --import=tsx scripts/gallery/capture-themes.ts
// (The gallery itself, `npm run screenshots`, needs no code-server: it reads these files.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixerModel } from '../../test/e2e/lib/fixer-model.js';
import { KeelSession, THEMES, type ThemeName } from '../../test/e2e/lib/keel-session.js';
import { ensureCodeServer } from '../../test/support/code-server.js';

const OUT = join(__dirname, 'themes');

async function capture(theme: ThemeName): Promise<void> {
  const session = await KeelSession.start({ name: `capture-theme-${theme}`, theme, model: fixerModel() });
  try {
    const frame = await session.view.open();
    const page = (await frame.evaluate(`(() => ({
      bodyClass: document.body.className,
      variables: Object.fromEntries(
        [...document.documentElement.style].filter((n) => n.startsWith('--vscode-')).map((n) => [n, document.documentElement.style.getPropertyValue(n).trim()]),
      ),
    }))()`)) as { bodyClass: string; variables: Record<string, string> };
    const file = join(OUT, `${theme}.json`);
    const source = `code-server ${process.env.KEEL_CODE_SERVER_VERSION ?? '4.139.1'} (VS Code 1.139.1), theme "${THEMES[theme]}"`;
    writeFileSync(file, `${JSON.stringify({ source, bodyClass: page.bodyClass, variables: page.variables }, null, 2)}\n`);
    console.log(`${file}: ${Object.keys(page.variables).length} variables`);
  } finally {
    await session.close();
  }
}

async function main(): Promise<void> {
  await ensureCodeServer();
  for (const theme of Object.keys(THEMES) as ThemeName[]) await capture(theme);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
