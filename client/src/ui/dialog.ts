// Modal dialogs on the native <dialog>: it traps focus and closes on Esc by itself.
import { h } from './dom';
import type { Child } from './dom';
import { t } from '../i18n/i18n';

export interface ModalHandle {
  dialog: HTMLDialogElement;
  body: HTMLElement;
  setTitle(text: string): void;
  close(): void;
}

export function openModal(options: { title: string; testId: string; onClose?: () => void; wide?: boolean }): ModalHandle {
  const titleId = `${options.testId}-title`;
  const title = h('h2', { id: titleId, text: options.title });
  const body = h('div', { class: 'dialog-body' });
  const closeButton = h('button', { type: 'button', class: 'icon-button', 'aria-label': t('common.close'), text: '×' });
  const dialog = h(
    'dialog',
    { class: options.wide ? 'dialog dialog-wide' : 'dialog', 'aria-labelledby': titleId, 'data-testid': options.testId },
    h('header', { class: 'dialog-header' }, title, closeButton),
    body,
  );
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    if (dialog.open) dialog.close();
    dialog.remove();
    options.onClose?.();
  };
  closeButton.addEventListener('click', close);
  dialog.addEventListener('close', close); // Esc and form method=dialog end here
  document.body.appendChild(dialog);
  dialog.showModal();
  return { dialog, body, setTitle: (text) => (title.textContent = text), close };
}

export function confirmDialog(options: { title: string; message: Child; confirmLabel: string; testId: string }): Promise<boolean> {
  return new Promise((resolve) => {
    let answer = false;
    const modal = openModal({ title: options.title, testId: options.testId, onClose: () => resolve(answer) });
    const cancel = h('button', { type: 'button', class: 'button', text: t('common.cancel'), onclick: () => modal.close() });
    const confirm = h('button', {
      type: 'button',
      class: 'button button-danger',
      text: options.confirmLabel,
      'data-testid': 'confirm',
      onclick: () => {
        answer = true;
        modal.close();
      },
    });
    modal.body.append(h('p', {}, options.message), h('div', { class: 'dialog-actions' }, cancel, confirm));
    cancel.focus(); // the safe choice is the default one
  });
}
