// Watching a live match: /global (2×, 1440×800), the scoreboard from the board's labels and the match
// REST, speed keys as buttons, reconnect with backoff; when the match ends, links to results and replay.
// In owners mode the speed keys count only on a socket dialled with the owner's or operator's token, so
// they are offered only then; a token the server refuses (it answers 403 before the upgrade, which a
// browser sees as a plain failure) is dropped and the page watches without it.
import { accessMode, canManage, credential, onAccessChange, watchParams } from '../access/access';
import type { Credential } from '../access/access';
import { updateDebug } from '../app/debugState';
import { getMatch, isLive } from '../hns/api';
import type { MatchDetail } from '../hns/api';
import { BehindNotice } from '../hns/behind';
import { appliedCounts, boardCounts, debugCogs, resetHnsDebug, updateHnsDebug } from '../hns/debug';
import { SPEED_KEYS } from '../hns/format';
import { readBoard } from '../hns/labels';
import type { Board } from '../hns/labels';
import { SpriteSession, spectatorSocketUrl } from '../hns/session';
import type { EndReason } from '../hns/session';
import { streamForThisPage } from '../hns/streamChoice';
import type { ConnectionState } from '../net/reconnectingSocket';
import { HnsStage } from '../hns/stage';
import { END_KEYS, MATCH_POLL_MS, Scoreboard, behindNote, boardText, fieldsFromSummary, paintBehind, seatChip, setText } from '../hns/ui';
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
  private readonly behindElement = behindNote();
  private readonly behind = new BehindNotice((showing) => this.paintBehind(showing));
  private readonly streamKind = streamForThisPage();
  private readonly stage: HnsStage;
  private readonly pollTimer: ReturnType<typeof setInterval>;
  private readonly boardTimer: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeAccess: () => void;
  private started = false;
  private watchUrl = '';
  private dialledWithToken = false;
  private openedSinceDial = false;
  private checkingRefusal = false;
  private refusedToken: string | null = null;
  private match: MatchDetail | null = null;
  private board: Board | null = null;
  private ended: EndReason | null = null;
  private seatsKey = '';
  private destroyed = false;

  constructor(private readonly matchId: string) {
    resetHnsDebug('watch', matchId);
    updateDebug({ view: 'hns-watch', school: null, arena: null });
    this.banner = new ConnectionBanner(() => this.session.retryNow());
    this.session = new SpriteSession(spectatorSocketUrl('/global', { match: matchId }, this.streamKind), {
      onConnection: (state) => {
        this.banner.update(state);
        updateHnsDebug({ connection: state.phase });
        this.noteConnection(state);
      },
      onApplied: () => updateHnsDebug(appliedCounts(this.session)),
      onEnd: (reason) => this.onEnd(reason),
      onBehind: () => this.behind.note(),
   }, { policyIsFinal: false, stream: this.streamKind });
    updateHnsDebug({ stream: this.streamKind });
    this.stage = new HnsStage(this.session.stream.world, this.canvasHost, 'hns-canvas');
    this.unsubscribe = onLanguageChange(() => this.render());
    this.unsubscribeAccess = onAccessChange(() => {
      if (this.started) this.redial();
      else this.startOnceModeKnown();
      this.render();
    });
    this.render();
    this.startOnceModeKnown();
    void this.poll();
    this.pollTimer = setInterval(() => void this.poll(), MATCH_POLL_MS);
    this.boardTimer = setInterval(() => this.readBoard(), BOARD_READ_MS);
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.pollTimer);
    clearInterval(this.boardTimer);
    this.unsubscribe();
    this.unsubscribeAccess();
    this.session.stop();
    this.behind.destroy();
    this.banner.destroy();
    this.stage.destroy();
  }

  // The socket's URL depends on the credential, so it is dialled once the mode is known (App asks).
  private startOnceModeKnown(): void {
    if (this.started || this.destroyed || accessMode() === null) return;
    this.started = true;
    this.dial(this.socketUrl());
  }

  // The credential for this match, unless the server already refused that very token.
  private usableCredential(): Credential | null {
    const sent = credential('hns', this.matchId);
    return sent.kind !== 'none' && sent.token === this.refusedToken ? null : sent;
  }

  private speedKeysOffered(): boolean {
    return this.usableCredential() !== null && canManage('hns', this.matchId);
  }

  private socketUrl(): string {
    return spectatorSocketUrl('/global', this.usableCredential() ? watchParams(this.matchId) : { match: this.matchId }, this.streamKind);
  }

  private dial(url: string): void {
    this.watchUrl = url;
    this.dialledWithToken = credential('hns', this.matchId).kind !== 'none' && this.usableCredential() !== null;
    this.openedSinceDial = false;
    this.session.reconnectTo(url); // the first connection too: the session is never start()ed here
  }

  private redial(): void {
    const url = this.socketUrl();
    if (url !== this.watchUrl && !this.session.isEnded) this.dial(url);
  }

  private noteConnection(state: ConnectionState): void {
    if (state.phase === 'open') this.openedSinceDial = true;
    if (state.phase === 'waiting' && this.dialledWithToken && !this.openedSinceDial) void this.checkRefusal();
  }

  // A socket with a token that never opened while the match is live: the server refused the token.
  private async checkRefusal(): Promise<void> {
    if (this.checkingRefusal) return;
    this.checkingRefusal = true;
    const token = credential('hns', this.matchId);
    const result = await getMatch(this.matchId);
    this.checkingRefusal = false;
    if (this.destroyed || this.openedSinceDial || !this.dialledWithToken || token.kind === 'none') return;
    if (!result.ok || !isLive(result.data)) return; // unreachable or over: not about the token
    this.refusedToken = token.token;
    this.redial();
    this.render();
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
    const speeds = !this.speedKeysOffered() ? null : h('div', { class: 'hns-toolbar', role: 'group', 'aria-label': t('hns.speed'), 'data-testid': 'hns-speeds' },
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
      this.behindElement,
      this.scoreboard.element,
      this.seats,
      this.refusedToken !== null && credential('hns', this.matchId).kind !== 'none'
        ? h('p', { class: 'note note-warning', role: 'status', 'data-testid': 'hns-watch-refused', text: t('access.watchRefused') })
        : null,
      speeds,
      this.canvasHost,
    );
    this.seatsKey = '';
    this.paintMatch();
    this.paintBoard();
    this.paintEnd();
    this.paintBehind(this.behind.showing);
  }

  private paintBehind(showing: boolean): void {
    paintBehind(this.behindElement, showing, 'hns.behind');
    updateHnsDebug({ behind: showing });
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
