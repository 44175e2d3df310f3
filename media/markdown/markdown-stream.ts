// One streamed markdown reply in the DOM. Finished blocks (see block-splitter) are rendered once
// and kept; only the open block is rendered again, at most once per `render()` (once per
// animation frame). The one exception is a reference: a block that mentions `[label]` renders
// differently once `[label]: url` arrives further down, so such blocks are remembered and
// rendered again when a definition of a label they mention is found — as the whole reply would
// render.
import { BlockSplitter, type FinishedBlock } from './block-splitter.js';
import { leavesHtmlOpen, markdownOptions, renderOpenFence, renderOpenMarkdown, renderTokens } from './render-markdown.js';

interface Referrer {
  readonly el: HTMLElement;
  readonly block: FinishedBlock;
  /** The block's text folded as marked folds labels, to find the labels it may use. */
  readonly folded: string;
}

/** Folds text the way marked folds a reference label (whitespace runs, case). */
const fold = (text: string): string => text.replace(/\s+/g, ' ').toLowerCase().toUpperCase().toLowerCase();

export class MarkdownStream {
  readonly el: HTMLElement;
  private readonly splitter = new BlockSplitter({ marked: markdownOptions, leavesHtmlOpen });
  private readonly live: HTMLElement;
  private readonly referrers: Referrer[] = [];
  private liveDirty = false;
  private ended = false;

  constructor(className = 'markdown') {
    this.el = document.createElement('div');
    this.el.className = className;
    this.live = document.createElement('div');
    this.live.className = 'md-block md-open';
    this.el.append(this.live);
  }

  /** Adds streamed text: O(chunk); the work waits for `render`. */
  append(text: string): void {
    if (this.ended || !text) return;
    this.splitter.push(text);
    this.liveDirty = true;
  }

  /** The text is complete: its last blocks are finished too. */
  end(): void {
    if (this.ended) return;
    this.freeze(this.splitter.end());
    this.ended = true;
    this.live.remove();
  }

  /** Freezes the blocks finished since the last call and re-renders the open block if it changed. */
  render(): void {
    if (!this.liveDirty || this.ended) return;
    this.liveDirty = false;
    this.settle();
    const text = this.splitter.openText;
    if (!text.trim()) {
      this.live.replaceChildren();
    } else if (this.splitter.inFence) {
      this.live.replaceChildren(renderOpenFence(text));
    } else {
      this.live.replaceChildren(renderOpenMarkdown(text, this.splitter.links));
    }
  }

  /** Freezes the blocks finished so far, leaving the open block as it is on screen. */
  settle(): void {
    if (!this.ended) this.freeze(this.splitter.split());
  }

  private freeze(blocks: FinishedBlock[]): void {
    this.relinkReferrers(this.splitter.takeNewDefinitions());
    for (const block of blocks) {
      const fragment = renderTokens(block.tokens);
      if (!fragment.hasChildNodes()) continue;
      const el = document.createElement('div');
      el.className = 'md-block';
      el.append(fragment);
      if (this.live.parentNode === this.el) this.el.insertBefore(el, this.live);
      else this.el.append(el);
      if (block.text.includes('[')) this.referrers.push({ el, block, folded: fold(block.text) });
    }
  }

  /** Renders again the earlier blocks that mention a label defined just now. */
  private relinkReferrers(labels: string[]): void {
    if (labels.length === 0) return;
    for (const referrer of this.referrers) {
      if (!labels.some((label) => referrer.folded.includes(label))) continue;
      this.splitter.relink(referrer.block);
      referrer.el.replaceChildren(renderTokens(referrer.block.tokens));
    }
  }
}
