// Settings: how the server runs (open or with owners) and the operator's token, which this browser
// keeps in localStorage and sends instead of an owner's token where it holds none.
import { accessMode, clearOperatorToken, onAccessChange, setOperatorToken, tokens } from '../access/access';
import { onLanguageChange, t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import { openModal } from '../ui/dialog';
import { h, replaceChildren } from '../ui/dom';

const MODE_KEYS: Record<'open' | 'owners' | 'unknown', MessageKey> = {
  open: 'settings.modeOpen',
  owners: 'settings.modeOwners',
  unknown: 'settings.modeUnknown',
};

export function openSettingsDialog(options: { onClosed?: () => void } = {}): void {
  const unsubscribers: Array<() => void> = [];
  const modal = openModal({
    title: t('settings.title'),
    testId: 'settings-dialog',
    onClose: () => {
      for (const unsubscribe of unsubscribers) unsubscribe();
      options.onClosed?.();
    },
  });
  let typed = '';
  let feedback: { key: MessageKey; invalid: boolean } | null = null;

  const render = () => {
    const mode = accessMode() ?? 'unknown';
    const isSet = tokens.operatorToken() !== null;
    const input = h('input', {
      id: 'operator-token',
      class: 'input',
      type: 'password',
      autocomplete: 'off',
      spellcheck: 'false',
      value: typed,
      'data-testid': 'operator-token',
      'aria-describedby': 'operator-hint operator-status',
      'aria-invalid': feedback?.invalid ? 'true' : undefined,
      oninput: (e: Event) => (typed = (e.target as HTMLInputElement).value),
    });
    const form = h('form', {
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (setOperatorToken(typed)) {
          typed = '';
          feedback = { key: 'settings.saved', invalid: false };
        } else {
          feedback = { key: 'settings.operatorInvalid', invalid: true };
        }
        render();
      },
    },
    h('div', { class: 'field' },
      h('label', { for: 'operator-token', text: t('settings.operator') }),
      h('div', { class: 'field-row' },
        input,
        h('button', { type: 'submit', id: 'operator-save', class: 'button button-primary', 'data-testid': 'operator-save', text: t('settings.save') }),
        h('button', {
          type: 'button',
          id: 'operator-clear',
          class: 'button',
          'data-testid': 'operator-clear',
          disabled: !isSet,
          text: t('settings.clear'),
          onclick: () => {
            clearOperatorToken();
            typed = '';
            feedback = { key: 'settings.cleared', invalid: false };
            render();
          },
        }),
      ),
      h('p', { id: 'operator-hint', class: 'hint', text: t('settings.operatorHint') }),
      h('p', { id: 'operator-status', 'data-testid': 'operator-status', 'data-set': String(isSet), text: t(isSet ? 'settings.operatorSet' : 'settings.operatorNotSet') }),
      feedback ? h('p', { class: feedback.invalid ? 'problem' : 'note', role: 'status', 'data-testid': 'operator-feedback', text: t(feedback.key) }) : null,
    ));
    const focused = document.activeElement?.id;
    replaceChildren(modal.body,
      h('p', { 'data-testid': 'access-mode', 'data-mode': mode, text: t(MODE_KEYS[mode]) }),
      form,
    );
    const again = focused ? modal.body.querySelector<HTMLElement>(`#${focused}`) : null;
    if (again && !(again as HTMLButtonElement).disabled) again.focus();
    else if (focused) input.focus();
  };

  unsubscribers.push(onAccessChange(render));
  unsubscribers.push(onLanguageChange(() => {
    modal.setTitle(t('settings.title'));
    render();
  }));
  render();
  modal.body.querySelector<HTMLInputElement>('#operator-token')?.focus();
}
