// A tiny element builder: no templates, no innerHTML for anything but sanitized markdown.
type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string | undefined>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value !== undefined) el.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** A codicon glyph; decorative, so hidden from assistive technology. */
export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, attrs: { 'aria-hidden': 'true' } });
}

/** A button that the root click handler routes by its `data-action`. */
export function actionButton(
  action: string,
  label: string,
  opts: { text?: string; icon?: string; testId?: string; data?: Record<string, string>; class?: string } = {},
): HTMLButtonElement {
  const attrs: Record<string, string> = { type: 'button', 'data-action': action, 'aria-label': label, title: label };
  if (opts.testId) attrs['data-testid'] = opts.testId;
  for (const [k, v] of Object.entries(opts.data ?? {})) attrs[`data-${k}`] = v;
  return h(
    'button',
    { class: opts.class ?? (opts.text ? 'button' : 'icon-button'), attrs },
    opts.icon ? icon(opts.icon) : null,
    opts.text ? h('span', { text: opts.text }) : null,
  );
}

export function setHidden(el: HTMLElement, hidden: boolean): void {
  if (el.hidden !== hidden) el.hidden = hidden;
}
