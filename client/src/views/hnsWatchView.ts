// Watching a live match: /global (2×, 1440×800), the scoreboard from the board's labels and the match
// REST, speed keys as buttons, reconnect with backoff; when the match ends, links to results and replay.
import { updateDebug } from '../app/debugState';
import { getMatch, isLive } from '../hns/api';
import type { MatchDetail } from '../hns/api';
import { appliedCounts, boardCounts, debugCogs, resetHnsDebug, updateHnsDebug } from '../hns/debug';
import { SPEED_KEYS } from '../hns/format';
import { readBoard } from '../hns/labels';
import type { Board } from '../hns/labels';
import { SpriteSession, hnsSocketUrl } from '../hns/session';
import type { EndReason } from '../hns/session';
import { HnsStage } from '../hns/stage';
import { END_KEYS, MATCH_POLL_MS, Scoreboard, boardText, fieldsFromSummary, seatChip, setText } from '../hns/ui';
import { onLanguageChange, t } from '../i18n/i18n';
import { ConnectionBanner } from '../ui/connectionBanner';
import { h, replaceChildren } from '../ui/dom';
import type { View } from './view';

const BOARD_READ_MS = 250;

export class HnsWatchView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'hns-watch-heading', 'data-testid': 'hns-watch' });
  private readonly session: SpriteSession;
  private readonly banner: ConnectionBanner;
  private readonly scoreboard = new Scoreboard();
  private readonly canvasHost = h('div', { class: 'hns-canvas', 'data-testid': 'hns-stage' });
  private readonly seats = h('ul', { class: 'seat-list', 'data-testid': 'hns-seats' });
  private readonly endNote = h('div', { class: 'note note-warning', role: 'status', 'data-testid': 'hns-ended', hidden: true });
  private readonly stage: HnsStage;
  private readonly pollTimer: ReturnType<typeof setInterval>;
  private readonly boardTimer: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;
  private match: MatchDetail | null = null;
  private board: Board | null = null;
  private ended: EndReason | null = null;
  private seatsKey = '';
  private destroyed = false;

  constructor(private readonly matchId: string) {
    resetHnsDebug('watch', matchId);
    updateDebug({ view: 'hns-watch', school: null, arena: null });
    this.banner = new ConnectionBanner(() => this.session.retryNow());
    this.session = new SpriteSession(hnsSocketUrl('/global', { match: matchId }), {
      onConnection: (state) => {
        this.banner.update(state);
        updateHnsDebug({ connection: state.phase });
      },
      onApplied: () => updateHnsDebug(appliedCounts(this.session)),
      onEnd: (reason) => this.onEnd(reason),
   }, { policyIsFinal: false });
    this.stage = new HnsStage(this.session.stream.world, this.canvasHost, 'hns-canvas');
    this.unsubscribe = onLanguageChange(() => this.render());
    this.render();
    this.session.start();
    void this.poll();
    this.pollTimer = setInterval(() => void this.poll(), MATCH_POLL_MS);
    this.boardTimer = setInterval(() => this.readBoard(), BOARD_READ_MS);
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.pollTimer);
    clearInterval(this.boardTimer);
    this.unsubscribe();
    this.session.stop();
    this.banner.destroy();
    this.stage.destroy();
  }

  private onEnd(reason: EndReason): void {
    this.ended = reason;
    updateHnsDebug({ ended: reason, connection: 'closed' });
    this.paintEnd();
    void this.poll();
  }

  private async poll(): Promise<void> {
    const result = await getMatch(this.matchId);
    if (this.destroyed) return;
    if (!result.ok) {
      if (result.problem.status === 404 && !this.ended) {
        this.session.stop();
        this.onEnd('gone');
      }
      return;
    }
    this.match = result.data;
    // A match that finished while we were away: no live stream to wait for.
    if (!isLive(result.data) && !this.ended) {
      this.session.stop();
      this.onEnd(result.data.phase === 'finished' ? 'over' : 'gone');
    }
    updateHnsDebug({ tick: result.data.tick });
    this.paintMatch();
  }

  private readBoard(): void {
    this.board = readBoard(this.session.stream.world);
    updateHnsDebug({
      ...boardCounts(this.stage, this.session),
      cogs: debugCogs(this.board.cogs),
    });
    this.paintBoard();
  }

  private send(key: string): void {
    this.session.sendText(key);
  }

  private render(): void {
    this.banner.render();
    this.scoreboard.relabel();
    const speeds = h('div', { class: 'hns-toolbar', role: 'group', 'aria-label': t('hns.speed') },
      h('span', { class: 'speed-label', text: t('hns.speed') }),
      h('button', { type: 'button', class: 'button button-small', 'data-testid': 'speed-down', 'aria-label': t('hns.slower'), text: '−', onclick: () => this.send('-') }),
      SPEED_KEYS.map(({ key, label }) => h('button', {
        type: 'button',
        class: 'button button-small speed-button',
        'data-testid': `speed-${key}`,
        text: label,
        onclick: () => this.send(key),
      })),
      h('button', { type: 'button', class: 'button button-small', 'data-testid': 'speed-up', 'aria-label': t('hns.faster'), text: '+', onclick: () => this.send('+') }),
    );
    replaceChildren(this.element,
      h('div', { class: 'hns-header' },
        h('h1', { id: 'hns-watch-heading', text: t('hns.watchHeading', { id: this.matchId }) }),
        h('a', { href: '#/hns', class: 'nav-link', text: t('hns.back') }),
      ),
      this.banner.element,
      this.endNote,
      this.scoreboard.element,
      this.seats,
      speeds,
      this.canvasHost,
    );
    this.seatsKey = '';
    this.paintMatch();
    this.paintBoard();
    this.paintEnd();
  }

  private paintMatch(): void {
    const match = this.match;
    if (!match) return;
    this.scoreboard.update(fieldsFromSummary(match));
    const key = JSON.stringify(match.seats);
    if (key !== this.seatsKey) {
      this.seatsKey = key;
      replaceChildren(this.seats, match.seats.map(seatChip));
    }
  }

  private paintBoard(): void {
    const board = this.board;
    if (!board) return;
    const spottedNames = board.spotted.map((slot) => this.match?.seats[slot]?.identity || `#${slot}`);
    setText(this.scoreboard.extra, boardText(board, spottedNames));
  }

  private paintEnd(): void {
    if (!this.ended) {
      this.endNote.hidden = true;
      return;
    }
    this.endNote.hidden = false;
    replaceChildren(this.endNote,
      h('span', { text: t(END_KEYS[this.ended]) }), ' ',
      this.ended === 'over' ? h('a', { href: `#/hns/results/${this.matchId}`, 'data-testid': 'hns-to-results', text: t('hns.results') }) : null, ' ',
      this.ended === 'over' ? h('a', { href: `#/hns/replay/${this.matchId}`, 'data-testid': 'hns-to-replay', text: t('hns.replay') }) : null,
    );
  }
}
