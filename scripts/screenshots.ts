// `npm run screenshots`: one HTML page of the panel's states (scripts/gallery/states*.ts) in the
// light, dark and high-contrast themes at 300 and 650 px, written to screenshots/index.html (and
// each picture as screenshots/<state>-<theme>-<width>.png). KEEL_GALLERY_ONLY=id,id… shoots only
// those states.
//
// It renders the real webview bundle (dist/webview.js and .css, built first) in Debian's
// Chromium, in the page the webview benchmark uses (media/dev-harness.html, a fake host), with
// the --vscode-* variables a real VS Code gives the view in each theme (captured from
// code-server: scripts/gallery/capture-themes.ts). It needs no code-server, so it builds from a
// clean clone in about a minute and shows exactly the states asked for, the same every time;
// what it cannot show — VS Code around the view — is what the e2e screenshots are for.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../test/support/browser.js';
import { type GalleryState, STATES as BASE_STATES } from './gallery/states.js';
import { ACTIVITY_STATES } from './gallery/states-activity.js';
import { ENDPOINT_STATES } from './gallery/states-endpoint.js';
import { ROUND3_STATES } from './gallery/states-round3.js';
import { serveWebview } from './static-server.js';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'screenshots');
const THEMES = ['light', 'dark', 'highContrast'] as const;
/** Side bars people have: the default width and a wide one. */
const WIDTHS = [300, 650] as const;
const STATES: GalleryState[] = [...BASE_STATES, ...ACTIVITY_STATES, ...ROUND3_STATES, ...ENDPOINT_STATES];
const HEIGHT = 640;
/** KEEL_GALLERY_ONLY: a comma-separated list of state ids to shoot (unset: all). */
const ONLY = process.env.KEEL_GALLERY_ONLY ? new Set(process.env.KEEL_GALLERY_ONLY.split(',')) : undefined;

interface Theme {
  source: string;
  bodyClass: string;
  variables: Record<string, string>;
}

interface Shot {
  state: GalleryState;
  theme: string;
  width: number;
  png: Buffer;
}

const readTheme = (name: string): Theme => JSON.parse(readFileSync(join(__dirname, 'gallery', 'themes', `${name}.json`), 'utf8'));

/** In the page: the theme's variables and body class, as VS Code sets them on a webview. */
const APPLY_THEME = `(theme) => {
  for (const [name, value] of Object.entries(theme.variables)) document.documentElement.style.setProperty(name, value);
  document.body.className = theme.bodyClass;
}`;

async function shoot(browser: Browser, base: string, theme: Theme, width: number, state: GalleryState): Promise<Buffer> {
  const context = await browser.newContext({ viewport: { width, height: HEIGHT } });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/media/dev-harness.html`);
    await page.waitForSelector('.app');
    await page.evaluate(`(${APPLY_THEME})(${JSON.stringify(theme)})`);
    await page.evaluate(`window.postMessage(${JSON.stringify(state.snapshot)}, '*')`);
    await page.waitForFunction('document.querySelector(".app") && window.__keelOutbox.length > 0');
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    if (state.click) await page.click(state.click);
    await page.evaluate('document.fonts.ready');
    return await page.screenshot();
  } finally {
    await context.close();
  }
}

function html(shots: Shot[], themes: Record<string, Theme>): string {
  // Titles go into attributes too (alt): quotes are escaped with the rest.
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const rows = STATES.filter((state) => shots.some((s) => s.state === state)).map((state) => {
    const cells = shots
      .filter((s) => s.state === state)
      .map(
        (s) =>
          `<figure><img width="${s.width}" alt="${esc(`${state.title}, ${s.theme}, ${s.width} px`)}" src="data:image/png;base64,${s.png.toString('base64')}"><figcaption>${s.theme} · ${s.width} px</figcaption></figure>`,
      );
    return `<section><h2>${esc(state.title)}</h2><div class="row">${cells.join('')}</div></section>`;
  });
  const sources = Object.entries(themes)
    .map(([name, t]) => `${name}: ${esc(t.source)}`)
    .join('; ');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><title>Keel panel gallery</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;background:#f3f3f3;color:#222}.row{display:flex;gap:16px;overflow-x:auto;align-items:flex-start}figure{margin:0}img{display:block;border:1px solid #bbb}figcaption{font-size:12px;color:#555;margin-top:4px}h2{font-size:16px;margin:28px 0 8px}</style>
</head><body><h1>Keel panel gallery</h1>
<p>The webview bundle as built, in Chromium, with each theme's variables captured from a real VS Code (${sources}). ${STATES.length} states × ${THEMES.length} themes × ${WIDTHS.length} widths, ${new Date().toISOString()}.</p>
${rows.join('\n')}
</body></html>
`;
}

async function main(): Promise<void> {
  console.log('building the webview bundle…');
  execFileSync('node', ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const themes = Object.fromEntries(THEMES.map((t) => [t, readTheme(t)]));
  const { server, base } = await serveWebview(ROOT);
  const browser = await launchChromium();
  const shots: Shot[] = [];
  try {
    for (const state of STATES.filter((s) => !ONLY || ONLY.has(s.id)))
      for (const theme of THEMES)
        for (const width of WIDTHS) shots.push({ state, theme, width, png: await shoot(browser, base, themes[theme]!, width, state) });
  } finally {
    await browser.close();
    server.close();
  }
  mkdirSync(OUT, { recursive: true });
  // Each picture as a file too, to look at one by one (screenshots/ is not committed).
  for (const s of shots) writeFileSync(join(OUT, `${s.state.id}-${s.theme}-${s.width}.png`), s.png);
  const file = join(OUT, 'index.html');
  writeFileSync(file, html(shots, themes));
  console.log(`${shots.length} pictures → ${file}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
