// A finished match re-stepped by the server (/replay): transport keys as buttons (§2.8), a seek bar in
// ticks, the chrome sprite 4090 for tick, end, speed and pause (§4.5), and a loud notice if the server
// reports that a re-stepped tick's hash differs from the recorded one.
import { getMatch } from '../hns/api';
import type { MatchDetail } from '../hns/api';
import { boardCounts, debugCogs, updateHnsDebug } from '../hns/debug';
import { chromeStageKey } from '../hns/format';
import { readBoard, readReplayChrome } from '../hns/labels';
import type { ReplayChrome } from '../hns/labels';
import { seekCommand } from '../hns/replay';
import { spectatorSocketUrl } from '../hns/session';
import { streamForThisPage } from '../hns/streamChoice';
import { boardText, matchHeader, resultsTables, setText } from '../hns/ui';
import { t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import { h, replaceChildren } from '../ui/dom';
import { HnsBoardPage } from './hnsBoardPage';
import type { View } from './view';

const CHROME_READ_MS = 100;

export class HnsReplayView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'hns-replay-heading', 'data-testid': 'hns-replay' });
  private readonly page: HnsBoardPage;
  private readonly canvasHost = h('div', { class: 'hns-canvas', 'data-testid': 'hns-stage' });
  private readonly mismatch = h('div', { class: 'mismatch', role: 'alert', 'data-testid': 'hns-mismatch', hidden: true });
  private readonly streamKind = streamForThisPage();
  private readonly tickReadout = h('span', { class: 'tick-readout', 'data-testid': 'replay-tick', 'aria-live': 'off' });
  private readonly speedReadout = h('span', { class: 'muted', 'data-testid': 'replay-speed' });
  private readonly playPause: HTMLButtonElement;
  private readonly seekBar: HTMLInputElement;
  private readonly seekInput: HTMLInputElement;
  private readonly resultsHost = h('div', { class: 'hns-section' });
  private chrome: ReplayChrome | null = null;
  private match: MatchDetail | null = null;
  private dragging = false;
  private mismatchSeen: ReplayChrome['mismatch'] = null; // sticky: a mismatch stays on screen once reported

  constructor(private readonly matchId: string) {
    this.page = new HnsBoardPage({
      view: 'replay',
      matchId,
      url: spectatorSocketUrl('/replay', { match: matchId }, this.streamKind),
      canvasHost: this.canvasHost,
      render: () => this.render(),
      spectator: { stream: this.streamKind, behindKey: 'hns.behindReplay' },
    });
    this.playPause = h('button', {
      type: 'button',
      class: 'button button-primary',
      'data-testid': 'replay-play-pause',
      // Explicit play or pause from the last chrome, so a double click never toggles twice.
      onclick: () => this.send(this.chrome?.paused === false ? 'P' : 'p'),
    });
    this.seekBar = h('input', {
      type: 'range',
      class: 'replay-seek',
      min: 0,
      max: 0,
      step: 1,
      value: 0,
      'data-testid': 'replay-seek',
      oninput: () => {
        this.dragging = true;
        this.paintTick(Number(this.seekBar.value));
      },
      onchange: () => {
        this.dragging = false;
        this.seek(Number(this.seekBar.value));
      },
    });
    this.seekInput = h('input', { type: 'number', class: 'input input-small', min: 0, step: 1, 'data-testid': 'replay-seek-tick', style: 'width: 7em' });
    this.render();
    this.page.session.start();
    this.page.every(CHROME_READ_MS, () => this.readChrome());
    void this.loadMatch();
  }

  destroy(): void {
    this.page.destroy();
  }

  private async loadMatch(): Promise<void> {
    const result = await getMatch(this.matchId);
    if (this.page.destroyed || !result.ok) return;
    this.match = result.data;
    this.paintResults();
  }

  private send(text: string): void {
    this.page.session.sendText(text);
  }

  private seek(tick: number): void {
    const command = seekCommand(tick, this.chrome?.end ?? null);
    if (command) this.send(command);
  }

  private readChrome(): void {
    const chrome = readReplayChrome(this.page.session.stream.world);
    const board = readBoard(this.page.session.stream.world);
    this.chrome = chrome;
    updateHnsDebug({
      ...boardCounts(this.page.stage, this.page.session),
      tick: chrome?.tick ?? null,
      end: chrome?.end ?? null,
      paused: chrome?.paused ?? null,
      speed: chrome?.speed ?? null,
      mismatch: chrome?.mismatch ?? this.mismatchSeen,
      cogs: debugCogs(board.cogs),
    });
    this.paintChrome();
    setText(this.page.scoreboard.extra, boardText(board, []));
  }

  private render(): void {
    this.page.relabel();
    const button = (testId: string, key: MessageKey, command: string, text?: string) => h('button', {
      type: 'button',
      class: 'button button-small',
      'data-testid': testId,
      'aria-label': text ? t(key) : undefined,
      title: t(key),
      text: text ?? t(key),
      onclick: () => this.send(command),
    });
    replaceChildren(this.element,
      matchHeader('hns-replay-heading', t('hns.replayHeading', { id: this.matchId })),
      this.page.banner.element,
      this.mismatch,
      this.page.endNote,
      this.page.behindElement,
      this.page.scoreboard.element,
      h('div', { class: 'hns-toolbar', role: 'group', 'aria-label': t('hns.replay.transport') },
        button('replay-restart', 'hns.replay.restart', ','),
        button('replay-back', 'hns.replay.back', 'b', '−1'),
        this.playPause,
        button('replay-forward', 'hns.replay.forward', '.', '+120'),
        button('replay-end', 'hns.replay.end', 'e', t('hns.replay.endShort')),
        h('span', { class: 'speed-label', text: t('hns.speed') }),
        button('replay-slower', 'hns.slower', '-', '−'),
        this.speedReadout,
        button('replay-faster', 'hns.faster', '+', '+'),
      ),
      h('div', { class: 'hns-toolbar' },
        h('label', { class: 'visually-hidden', for: 'replay-seek', text: t('hns.replay.seek') }),
        this.seekBar,
        this.tickReadout,
        h('form', {
          class: 'hns-toolbar',
          onsubmit: (e: Event) => {
            e.preventDefault();
            if (this.seekInput.value !== '') this.seek(Number(this.seekInput.value));
          },
        },
        h('label', { text: t('hns.replay.goTo') }),
        this.seekInput,
        h('button', { type: 'submit', class: 'button button-small', 'data-testid': 'replay-go', text: t('hns.replay.go') }),
        ),
      ),
      this.canvasHost,
      this.resultsHost,
    );
    this.seekBar.id = 'replay-seek';
    this.paintChrome();
    this.paintResults();
    this.page.repaint();
  }

  private paintTick(tick: number): void {
    const end = this.chrome?.end;
    setText(this.tickReadout, end !== null && end !== undefined ? t('hns.replay.tickOf', { tick, end }) : t('hns.replay.tick', { tick }));
  }

  private paintChrome(): void {
    const chrome = this.chrome;
    setText(this.playPause, chrome && !chrome.paused ? t('hns.replay.pause') : `▶ ${t('hns.replay.play')}`);
    this.playPause.setAttribute('aria-pressed', chrome && !chrome.paused ? 'true' : 'false');
    if (!chrome) {
      setText(this.tickReadout, '—');
      setText(this.speedReadout, '—');
      return;
    }
    if (chrome.end !== null) {
      this.seekBar.max = String(chrome.end);
      this.seekInput.max = String(chrome.end);
    }
    if (!this.dragging) {
      if (this.seekBar.value !== String(chrome.tick)) this.seekBar.value = String(chrome.tick);
      this.paintTick(chrome.tick);
    }
    setText(this.speedReadout, chrome.speed !== null ? `${chrome.speed}×` : '—');
    const stage = chromeStageKey(chrome.phase, chrome.matchPhase);
    this.page.scoreboard.update({
      stage: stage ? t(stage) : chrome.phase,
      game: chrome.game,
      games: chrome.games,
      secondsLeft: chrome.phaseLeft,
      tick: chrome.tick,
      hidden: chrome.hidden,
      seen: chrome.seen,
    });
    if (chrome.mismatch) this.mismatchSeen = chrome.mismatch;
    const mismatch = this.mismatchSeen;
    if (mismatch) {
      this.mismatch.hidden = false;
      setText(this.mismatch, t('hns.replay.mismatch', { tick: mismatch.tick, expected: mismatch.expected, got: mismatch.got }));
    } else {
      this.mismatch.hidden = true;
    }
  }

  private paintResults(): void {
    const results = this.match?.results;
    // The replay is re-stepped by the rules of its own game version; say which.
    const version = this.match
      ? h('p', { class: 'muted', 'data-testid': 'replay-game-version', text: t('hns.gameVersion', { version: this.match.gameVersion }) })
      : null;
    replaceChildren(this.resultsHost, version, results ? [h('h2', { text: t('hns.results') }), resultsTables(results)] : null);
  }
}
