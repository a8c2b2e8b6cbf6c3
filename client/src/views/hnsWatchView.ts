// Watching a live match: /global (2×, 1440×800), the scoreboard from the board's labels and the match
// REST, speed keys as buttons, reconnect with backoff; when the match ends, links to results and replay.
// In owners mode the speed keys count only on a socket dialled with the owner's or operator's token, so
// they are offered only then; a token the server refuses (it answers 403 before the upgrade, which a
// browser sees as a plain failure) is dropped and the page watches without it.
import { accessMode, canManage, credential, onAccessChange, watchParams } from '../access/access';
import type { Credential } from '../access/access';
import { getMatch, isLive } from '../hns/api';
import type { MatchDetail } from '../hns/api';
import { boardCounts, debugCogs, updateHnsDebug } from '../hns/debug';
import { SPEED_KEYS } from '../hns/format';
import { readBoard } from '../hns/labels';
import type { Board } from '../hns/labels';
import { spectatorSocketUrl } from '../hns/session';
import { streamForThisPage } from '../hns/streamChoice';
import type { ConnectionState } from '../net/reconnectingSocket';
import { boardText, fieldsFromSummary, matchHeader, seatChip, setText } from '../hns/ui';
import { t } from '../i18n/i18n';
import { h, replaceChildren } from '../ui/dom';
import { HnsBoardPage } from './hnsBoardPage';
import type { View } from './view';

const BOARD_READ_MS = 250;

export class HnsWatchView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'hns-watch-heading', 'data-testid': 'hns-watch' });
  private readonly page: HnsBoardPage;
  private readonly canvasHost = h('div', { class: 'hns-canvas', 'data-testid': 'hns-stage' });
  private readonly seats = h('ul', { class: 'seat-list', 'data-testid': 'hns-seats' });
  private readonly streamKind = streamForThisPage();
  private readonly unsubscribeAccess: () => void;
  private readonly readMatchNow: () => void;
  private started = false;
  private watchUrl = '';
  private dialledWithToken = false;
  private openedSinceDial = false;
  private checkingRefusal = false;
  private refusedToken: string | null = null;
  private match: MatchDetail | null = null;
  private board: Board | null = null;
  private seatsKey = '';

  constructor(private readonly matchId: string) {
    this.page = new HnsBoardPage({
      view: 'watch',
      matchId,
      url: spectatorSocketUrl('/global', { match: matchId }, this.streamKind),
      canvasHost: this.canvasHost,
      render: () => this.render(),
      spectator: { stream: this.streamKind, behindKey: 'hns.behind' },
      endLinks: true,
      onConnection: (state) => this.noteConnection(state),
      onEnd: () => this.readMatchNow(),
    });
    this.unsubscribeAccess = onAccessChange(() => {
      if (this.started) this.redial();
      else this.startOnceModeKnown();
      this.render();
    });
    this.render();
    this.startOnceModeKnown();
    this.readMatchNow = this.page.followLiveMatch(true, (match) => this.showMatch(match));
    this.page.every(BOARD_READ_MS, () => this.readBoard());
  }

  destroy(): void {
    this.unsubscribeAccess();
    this.page.destroy();
  }

  // The socket's URL depends on the credential, so it is dialled once the mode is known (App asks).
  private startOnceModeKnown(): void {
    if (this.started || this.page.destroyed || accessMode() === null) return;
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
    this.page.session.reconnectTo(url); // the first connection too: the session is never start()ed here
  }

  private redial(): void {
    const url = this.socketUrl();
    if (url !== this.watchUrl && !this.page.session.isEnded) this.dial(url);
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
    if (this.page.destroyed || this.openedSinceDial || !this.dialledWithToken || token.kind === 'none') return;
    if (!result.ok || !isLive(result.data)) return; // unreachable or over: not about the token
    this.refusedToken = token.token;
    this.redial();
    this.render();
  }

  private showMatch(match: MatchDetail): void {
    this.match = match;
    this.paintMatch();
  }

  private readBoard(): void {
    this.board = readBoard(this.page.session.stream.world);
    updateHnsDebug({
      ...boardCounts(this.page.stage, this.page.session),
      cogs: debugCogs(this.board.cogs),
    });
    this.paintBoard();
  }

  private send(key: string): void {
    this.page.session.sendText(key);
  }

  private render(): void {
    this.page.relabel();
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
      matchHeader('hns-watch-heading', t('hns.watchHeading', { id: this.matchId })),
      this.page.banner.element,
      this.page.endNote,
      this.page.behindElement,
      this.page.scoreboard.element,
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
    this.page.repaint();
  }

  private paintMatch(): void {
    const match = this.match;
    if (!match) return;
    this.page.scoreboard.update(fieldsFromSummary(match));
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
    setText(this.page.scoreboard.extra, boardText(board, spottedNames));
  }
}
