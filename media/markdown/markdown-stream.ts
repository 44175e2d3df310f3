// One streamed markdown reply in the DOM: finished blocks are rendered once and frozen; only
// the open block is re-rendered, at most once per `render()` (once per animation frame).
import { BlockSplitter } from './block-splitter.js';
import { renderMarkdown, renderOpenFence } from './render-markdown.js';

export class MarkdownStream {
  readonly el: HTMLElement;
  private readonly splitter = new BlockSplitter();
  private readonly live: HTMLElement;
  private liveDirty = false;
  private ended = false;

  constructor(className = 'markdown') {
    this.el = document.createElement('div');
    this.el.className = className;
    this.live = document.createElement('div');
    this.live.className = 'md-block md-open';
    this.el.append(this.live);
  }

  append(text: string): void {
    if (this.ended || !text) return;
    for (const block of this.splitter.push(text)) this.freeze(block);
    this.liveDirty = true;
  }

  /** The text is complete: its last block is frozen too. */
  end(): void {
    if (this.ended) return;
    for (const block of this.splitter.end()) this.freeze(block);
    this.ended = true;
    this.live.remove();
  }

  /** Re-renders the open block if it changed since the last call. */
  render(): void {
    if (!this.liveDirty || this.ended) return;
    this.liveDirty = false;
    const text = this.splitter.openText;
    if (!text.trim()) {
      this.live.replaceChildren();
    } else if (this.splitter.inFence) {
      this.live.replaceChildren(renderOpenFence(text));
    } else {
      this.live.replaceChildren(renderMarkdown(text));
    }
  }

  private freeze(block: string): void {
    const el = document.createElement('div');
    el.className = 'md-block';
    el.append(renderMarkdown(block));
    if (this.live.parentNode === this.el) this.el.insertBefore(el, this.live);
    else this.el.append(el);
  }
}
