// What the three hide-and-seek board pages (watch, replay, play) share from construction to destroy():
// the debug state, the SpriteSession and its counts, the connection banner, the board stage, the end
// note, a spectator's "behind" notice, re-rendering on a language change, their timers and teardown.
// Each view keeps what is its own: watch its speed keys, owner token and the match it polls; replay
// its transport and chrome; play its seat and keyboard.
import { updateDebug } from '../app/debugState';
import { getMatch, isLive } from '../hns/api';
import type { MatchDetail } from '../hns/api';
import { BehindNotice } from '../hns/behind';
import { appliedCounts, resetHnsDebug, updateHnsDebug } from '../hns/debug';
import { SpriteSession } from '../hns/session';
import type { EndReason } from '../hns/session';
import { HnsStage } from '../hns/stage';
import type { StageOptions } from '../hns/stage';
import type { StreamKind } from '../hns/streamChoice';
import { END_KEYS, MATCH_POLL_MS, Scoreboard, behindNote, paintBehind, setText } from '../hns/ui';
import { onLanguageChange, t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import type { ConnectionState } from '../net/reconnectingSocket';
import { ConnectionBanner } from '../ui/connectionBanner';
import { h, replaceChildren } from '../ui/dom';

// A page that watches rather than plays: it reads the stream it asked for, is not refused for falling
// behind (the server closes it with 1008, and it reconnects), and says when it cannot keep up.
export interface SpectatorOptions {
  stream: StreamKind;
  behindKey: MessageKey;
}

export interface BoardPageOptions {
  view: 'watch' | 'replay' | 'play';
  matchId: string;
  url: string;
  canvasHost: HTMLElement;
  render(): void; // the whole page again, on a language change
  spectator?: SpectatorOptions;
  stage?: StageOptions;
  scoreboardBoardLine?: boolean; // the scoreboard's line for the board's labels (not on a seat's page)
  endLinks?: boolean; // the end note links to results and replay once the match is over
  onConnection?(state: ConnectionState): void;
  onOpen?(sendText: (text: string) => void): void; // see SpriteSessionEvents.onOpen
  onEnd?(reason: EndReason): void; // after the page noted the end and painted it
}

export class HnsBoardPage {
  readonly session: SpriteSession;
  readonly banner: ConnectionBanner;
  readonly stage: HnsStage;
  readonly scoreboard: Scoreboard;
  readonly endNote = h('div', { class: 'note note-warning', role: 'status', 'data-testid': 'hns-ended', hidden: true });
  readonly behindElement: HTMLElement | null;
  private ended: EndReason | null = null;
  private gone = false; // destroy() ran: late answers have no page to paint
  private readonly behind: BehindNotice | null;
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];
  private readonly unsubscribeLanguage: () => void;

  constructor(private readonly options: BoardPageOptions) {
    const spectator = options.spectator;
    resetHnsDebug(options.view, options.matchId);
    updateDebug({ view: `hns-${options.view}`, school: null, arena: null });
    this.scoreboard = new Scoreboard(options.scoreboardBoardLine ?? true);
    this.behindElement = spectator ? behindNote() : null;
    this.behind = spectator ? new BehindNotice((showing) => this.paintBehind(showing)) : null;
    this.banner = new ConnectionBanner(() => this.session.retryNow());
    this.session = new SpriteSession(options.url, {
      onConnection: (state) => {
        this.banner.update(state);
        updateHnsDebug({ connection: state.phase });
        options.onConnection?.(state);
      },
      onOpen: options.onOpen,
      onApplied: () => updateHnsDebug(appliedCounts(this.session)),
      onEnd: (reason) => this.end(reason),
      onBehind: () => this.behind?.note(),
    }, spectator ? { policyIsFinal: false, stream: spectator.stream } : {});
    if (spectator) updateHnsDebug({ stream: spectator.stream });
    this.stage = new HnsStage(this.session.stream.world, options.canvasHost, 'hns-canvas', options.stage);
    this.unsubscribeLanguage = onLanguageChange(() => options.render());
  }

  get destroyed(): boolean {
    return this.gone;
  }

  // A timer that lives as long as the page.
  every(intervalMs: number, run: () => void): void {
    this.timers.push(setInterval(run, intervalMs));
  }

  destroy(): void {
    this.gone = true;
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribeLanguage();
    this.session.stop();
    this.behind?.destroy();
    this.banner.destroy();
    this.stage.destroy();
  }

  // A live page reads the match REST now and every MATCH_POLL_MS, and shows what it read. A match no
  // longer live ends the page, and so does one the server no longer knows (404) with `endWhenMissing`.
  // Returns a read-now, for a page that wants the final state as soon as its stream ends.
  followLiveMatch(endWhenMissing: boolean, show: (match: MatchDetail) => void): () => void {
    const read = async (): Promise<void> => {
      const result = await getMatch(this.options.matchId);
      if (this.destroyed) return;
      if (!result.ok) {
        if (endWhenMissing && result.problem.status === 404 && !this.ended) this.stopWith('gone');
        return;
      }
      // A match that finished while we were away: no live stream to wait for.
      if (!isLive(result.data) && !this.ended) this.stopWith(result.data.phase === 'finished' ? 'over' : 'gone');
      updateHnsDebug({ tick: result.data.tick });
      show(result.data);
    };
    void read();
    this.every(MATCH_POLL_MS, () => void read());
    return () => void read();
  }

  // The banner's and the scoreboard's words again, after a language change.
  relabel(): void {
    this.banner.render();
    this.scoreboard.relabel();
  }

  // The end note and the behind notice again, after render() rebuilt the page around them.
  repaint(): void {
    this.paintEnd();
    if (this.behind) this.paintBehind(this.behind.showing);
  }

  private stopWith(reason: EndReason): void {
    this.session.stop();
    this.end(reason);
  }

  private end(reason: EndReason): void {
    this.ended = reason;
    updateHnsDebug({ ended: reason, connection: 'closed' });
    this.paintEnd();
    this.options.onEnd?.(reason);
  }

  private paintBehind(showing: boolean): void {
    if (!this.behindElement || !this.options.spectator) return;
    paintBehind(this.behindElement, showing, this.options.spectator.behindKey);
    updateHnsDebug({ behind: showing });
  }

  private paintEnd(): void {
    const ended = this.ended;
    this.endNote.hidden = !ended;
    if (!ended) return;
    if (!this.options.endLinks) {
      setText(this.endNote, t(END_KEYS[ended]));
      return;
    }
    const matchId = this.options.matchId;
    replaceChildren(this.endNote,
      h('span', { text: t(END_KEYS[ended]) }), ' ',
      ended === 'over' ? h('a', { href: `#/hns/results/${matchId}`, 'data-testid': 'hns-to-results', text: t('hns.results') }) : null, ' ',
      ended === 'over' ? h('a', { href: `#/hns/replay/${matchId}`, 'data-testid': 'hns-to-replay', text: t('hns.replay') }) : null,
    );
  }
}
