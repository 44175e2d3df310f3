// highlight.js core with a handful of languages: the full build would triple the bundle.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = { bash, css, diff, go, javascript, json, markdown, python, rust, typescript, xml, yaml };
for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Highlighted HTML for a finished code block (escaped plain text for unknown languages). */
export function highlightCode(code: string, lang: string | undefined): { html: string; language?: string } {
  const name = lang?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!name || !hljs.getLanguage(name)) return { html: escapeHtml(code) };
  const result = hljs.highlight(code, { language: name, ignoreIllegals: true });
  return { html: result.value, language: name };
}
