// Shows a socket's connection state: connecting, or lost with a countdown and a retry button.
import { h, replaceChildren } from './dom';
import { t } from '../i18n/i18n';
import type { ConnectionState } from '../net/reconnectingSocket';

const COUNTDOWN_TICK_MS = 250;

export class ConnectionBanner {
  readonly element = h('div', { class: 'banner', role: 'status', 'aria-live': 'polite', 'data-testid': 'connection' });
  private state: ConnectionState = { phase: 'connecting', attempt: 1 };
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly onRetryNow: () => void) {
    this.render();
  }

  update(state: ConnectionState): void {
    this.state = state;
    this.render();
  }

  render(): void {
    const state = this.state;
    this.element.dataset.phase = state.phase;
    this.stopCountdown();
    if (state.phase === 'open' || state.phase === 'closed') {
      this.element.hidden = true;
      replaceChildren(this.element);
      return;
    }
    this.element.hidden = false;
    if (state.phase === 'connecting') {
      this.element.className = 'banner banner-info';
      replaceChildren(this.element, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('conn.connecting'));
      return;
    }
    this.element.className = 'banner banner-error';
    const text = h('span');
    const paint = () => {
      const seconds = Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000));
      text.textContent = t('conn.lost', { seconds, attempt: state.attempt });
    };
    paint();
    this.timer = setInterval(paint, COUNTDOWN_TICK_MS);
    replaceChildren(
      this.element,
      text,
      h('button', { type: 'button', class: 'button button-small', text: t('conn.reconnectNow'), onclick: this.onRetryNow }),
    );
  }

  destroy(): void {
    this.stopCountdown();
  }

  private stopCountdown(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
