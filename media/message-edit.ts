// Edit and resend an earlier message: the user message's Edit button opens its text in a box;
// Resend forks the task there (the host keeps the original task as it was), Cancel closes it.
import { TestIds } from '../src/protocol/index.js';
import { actionButton, h } from './dom.js';

/** The Edit button a user message carries. */
export function editButton(): HTMLButtonElement {
  return actionButton('edit-message', 'Edit and resend this message (starts a new task from here)', {
    icon: 'edit',
    testId: TestIds.editMessage,
    class: 'icon-button edit-message',
  });
}

/** Opens the editor inside a user message's element (once); returns it, for the view to bring into sight. */
export function openEditor(message: HTMLElement): HTMLElement {
  const open = message.querySelector<HTMLElement>('.message-editor');
  if (open) return open;
  const text = message.querySelector('.user-text')?.textContent ?? '';
  const box = h('textarea', {
    class: 'composer-input message-editor-input',
    attrs: { rows: '3', 'aria-label': 'Edited message', 'data-testid': TestIds.editMessageInput },
  });
  box.value = text;
  const editor = h(
    'div',
    { class: 'message-editor' },
    box,
    h(
      'div',
      { class: 'message-editor-buttons' },
      actionButton('resend-message', 'Resend (as a new task from here)', { text: 'Resend', testId: TestIds.resendMessage }),
      actionButton('cancel-edit', 'Cancel editing', { text: 'Cancel', class: 'button secondary' }),
    ),
  );
  message.append(editor);
  // The view scrolls the whole editor (its Resend too) into sight; focus alone would not.
  box.focus({ preventScroll: true });
  return editor;
}

export function closeEditor(message: HTMLElement): void {
  message.querySelector('.message-editor')?.remove();
}

/** The edited text, or '' when empty. */
export function editedText(message: HTMLElement): string {
  return message.querySelector<HTMLTextAreaElement>('.message-editor-input')?.value.trim() ?? '';
}
