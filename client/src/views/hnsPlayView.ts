// Playing a seat by hand: /player (1×, 720×400) registered as "manual", the keyboard (or the on-screen
// buttons) as a Sprite v1 button mask, the own cog centred, its aim from the label, the stage and the
// time left from the match REST, and which side the seat is on in each game.
import { updateDebug } from '../app/debugState';
import { getMatch, isLive, sideOf } from '../hns/api';
import type { MatchDetail, Side } from '../hns/api';
import { appliedCounts, boardCounts, resetHnsDebug, updateHnsDebug } from '../hns/debug';
import { CONTROL_ROWS, HnsKeys, MaskSender } from '../hns/keyboard';
import { bradsToDegrees, readOwnCog } from '../hns/labels';
import type { Cog } from '../hns/labels';
import { SpriteSession, hnsSocketUrl } from '../hns/session';
import type { EndReason } from '../hns/session';
import { HnsStage } from '../hns/stage';
import { END_KEYS, MATCH_POLL_MS, Scoreboard, fieldsFromSummary, setText } from '../hns/ui';
import { playerName } from '../hns/name';
import { sideKey } from '../hns/format';
import { onLanguageChange, t } from '../i18n/i18n';
import { ConnectionBanner } from '../ui/connectionBanner';
import { h, replaceChildren } from '../ui/dom';
import type { View } from './view';

export const REGISTER_MANUAL = JSON.stringify({ type: 'register', mode: 'manual' });
const CAMERA_ZOOM = 1.5;
const HUD_READ_MS = 100;

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export class HnsPlayView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'hns-play-heading', 'data-testid': 'hns-play' });
  private readonly session: SpriteSession;
  private readonly banner: ConnectionBanner;
  private readonly scoreboard = new Scoreboard(false);
  private readonly canvasHost = h('div', { class: 'hns-canvas', tabindex: '0', 'data-testid': 'hns-stage' });
  private readonly sideNow = h('p', { class: 'side-now', 'data-testid': 'hns-side' });
  private readonly sides = h('ul', { class: 'sides', 'data-testid': 'hns-sides' });
  private readonly aim = h('p', { 'data-testid': 'hns-aim' });
  private readonly aimArrow = h('span', { class: 'aim-arrow', 'aria-hidden': 'true', text: '➜' });
  private readonly position = h('p', { class: 'muted', 'data-testid': 'hns-position' });
  private readonly seatNote = h('p', { class: 'muted', 'data-testid': 'hns-seat' });
  private readonly endNote = h('div', { class: 'note note-warning', role: 'status', 'data-testid': 'hns-ended', hidden: true });
  private readonly controlButtons: HTMLButtonElement[] = [];
  private readonly keys = new HnsKeys();
  private readonly masks: MaskSender;
  private readonly stage: HnsStage;
  private readonly name = playerName();
  private readonly pollTimer: ReturnType<typeof setInterval>;
  private readonly hudTimer: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;
  private match: MatchDetail | null = null;
  private own: Cog | null = null;
  private ended: EndReason | null = null;
  private destroyed = false;

  // token: a league seat's (from /client/player); the configured roster then names the seat.
  constructor(private readonly matchId: string, private readonly slot: number, token?: string) {
    resetHnsDebug('play', matchId);
    updateDebug({ view: 'hns-play', school: null, arena: null });
    this.banner = new ConnectionBanner(() => this.session.retryNow());
    this.session = new SpriteSession(hnsSocketUrl('/player', token ? { match: matchId, slot, token } : { match: matchId, slot, name: this.name }), {
      onConnection: (state) => {
        this.banner.update(state);
        updateHnsDebug({ connection: state.phase });
      },
      // Register on every (re)connection, then say what is held right now.
      onOpen: (sendText) => {
        sendText(REGISTER_MANUAL);
        this.masks.reset();
        queueMicrotask(() => this.sendMask());
      },
      onApplied: () => updateHnsDebug(appliedCounts(this.session)),
      onEnd: (reason) => this.onEnd(reason),
    });
    this.masks = new MaskSender((mask) => this.session.sendMask(mask));
    this.stage = new HnsStage(this.session.stream.world, this.canvasHost, 'hns-canvas', {
      grid: true,
      zoom: CAMERA_ZOOM,
      follow: () => (this.own ? { x: this.own.x, y: this.own.y } : null),
    });
    this.unsubscribe = onLanguageChange(() => this.render());
    this.render();
    window.addEventListener('keydown', this.onKeyDown);
    window.addEventListener('keyup', this.onKeyUp);
    window.addEventListener('blur', this.onBlur);
    this.session.start();
    void this.poll();
    this.pollTimer = setInterval(() => void this.poll(), MATCH_POLL_MS);
    this.hudTimer = setInterval(() => this.readOwn(), HUD_READ_MS);
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.pollTimer);
    clearInterval(this.hudTimer);
    this.unsubscribe();
    window.removeEventListener('keydown', this.onKeyDown);
    window.removeEventListener('keyup', this.onKeyUp);
    window.removeEventListener('blur', this.onBlur);
    this.session.stop();
    this.banner.destroy();
    this.stage.destroy();
  }

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (this.keys.press(event.code)) {
      event.preventDefault(); // arrows and space would scroll the page
      this.sendMask();
    }
  };

  private readonly onKeyUp = (event: KeyboardEvent) => {
    if (this.keys.release(event.code)) {
      event.preventDefault();
      this.sendMask();
    }
  };

  // A key released while the window had no focus never sends keyup: let go of everything.
  private readonly onBlur = () => {
    this.keys.releaseAll();
    this.sendMask();
  };

  private sendMask(): void {
    const mask = this.keys.mask();
    this.masks.update(mask);
    updateHnsDebug({ mask });
    for (const button of this.controlButtons) button.dataset.held = String((mask & Number(button.dataset.mask)) !== 0);
  }

  private onEnd(reason: EndReason): void {
    this.ended = reason;
    this.keys.releaseAll();
    updateHnsDebug({ ended: reason, connection: 'closed', mask: 0 });
    this.paintEnd();
  }

  private async poll(): Promise<void> {
    const result = await getMatch(this.matchId);
    if (this.destroyed || !result.ok) return;
    this.match = result.data;
    if (!isLive(result.data) && !this.ended) {
      this.session.stop();
      this.onEnd(result.data.phase === 'finished' ? 'over' : 'gone');
    }
    updateHnsDebug({ tick: result.data.tick });
    this.paintMatch();
  }

  private readOwn(): void {
    this.own = readOwnCog(this.session.stream.world, this.slot);
    const own = this.own;
    updateHnsDebug({
      ...boardCounts(this.stage, this.session),
      own: own ? { slot: own.slot, x: own.x, y: own.y, aim: own.aim, side: own.side } : null,
    });
    this.paintOwn();
  }

  private currentSide(): Side {
    const seat = this.match?.seats[this.slot];
    return seat?.side ?? this.own?.side ?? sideOf(this.slot, this.match?.game || 1);
  }

  private render(): void {
    this.banner.render();
    this.scoreboard.relabel();
    this.controlButtons.length = 0;
    const controls = h('ul', { class: 'controls-list', 'data-testid': 'hns-controls' },
      CONTROL_ROWS.map((row) => {
        const button = h('button', {
          type: 'button',
          class: 'button button-small control-row',
          'data-mask': row.mask,
          'data-held': 'false',
          onpointerdown: (e: Event) => {
            const pe = e as PointerEvent;
            (pe.target as HTMLElement).setPointerCapture?.(pe.pointerId);
            this.keys.pressPointer(pe.pointerId, row.mask);
            this.sendMask();
          },
          onpointerup: (e: Event) => this.releasePointer(e as PointerEvent),
          onpointercancel: (e: Event) => this.releasePointer(e as PointerEvent),
        }, h('kbd', { text: row.keys }), h('span', { text: t(row.action) }));
        this.controlButtons.push(button);
        return h('li', {}, button);
      }),
    );
    replaceChildren(this.element,
      h('div', { class: 'hns-header' },
        h('h1', { id: 'hns-play-heading', text: t('hns.playHeading', { id: this.matchId, slot: this.slot }) }),
        h('a', { href: '#/hns', class: 'nav-link', text: t('hns.back') }),
      ),
      this.banner.element,
      this.endNote,
      this.scoreboard.element,
      h('div', { class: 'hns-play-grid' },
        this.canvasHost,
        h('aside', { class: 'panel', 'aria-label': t('hns.you') },
          h('h2', { text: t('hns.you') }),
          this.seatNote,
          this.sideNow,
          this.sides,
          h('p', {}, this.aimArrow, ' ', this.aim),
          this.position,
          h('h2', { text: t('hns.controls') }),
          h('p', { class: 'hint', text: t('hns.controlsHint') }),
          controls,
        ),
      ),
    );
    this.paintMatch();
    this.paintOwn();
    this.paintEnd();
    this.sendMask();
  }

  private releasePointer(event: PointerEvent): void {
    this.keys.releasePointer(event.pointerId);
    this.sendMask();
  }

  private paintMatch(): void {
    const match = this.match;
    const seat = match?.seats[this.slot];
    setText(this.seatNote, t('hns.seatAs', { slot: this.slot, name: seat?.identity || this.name }));
    if (match) this.scoreboard.update(fieldsFromSummary(match));
    const games = Math.max(1, match?.games ?? 2);
    const current = match?.game ?? 0;
    const side = this.currentSide();
    setText(this.sideNow, t('hns.youAre', { side: t(sideKey(side)) }));
    this.sideNow.className = `side-now side-${side}`;
    this.sideNow.dataset.side = side;
    // The server reports the current side; the others follow from the swap every game.
    const items = Array.from({ length: games }, (_, i) => {
      const game = i + 1;
      const sideInGame = current > 0 && seat?.side ? (((game - current) % 2 === 0) ? seat.side : seat.side === 'hider' ? 'seeker' : 'hider') : sideOf(this.slot, game);
      return h('li', {
        'aria-current': game === current ? 'true' : undefined,
        'data-testid': 'hns-side-game',
      }, t('hns.sideInGame', { game }), ' ', h('span', { class: `side-${sideInGame}`, text: t(sideKey(sideInGame)) }));
    });
    replaceChildren(this.sides, items);
  }

  private paintOwn(): void {
    const own = this.own;
    if (!own) {
      setText(this.aim, t('hns.aimUnknown'));
      setText(this.position, t('hns.waitingCog'));
      return;
    }
    if (own.aim === null) {
      setText(this.aim, t('hns.aimUnknown'));
    } else {
      const degrees = bradsToDegrees(own.aim);
      setText(this.aim, t('hns.aim', { degrees, brads: own.aim }));
      // Aim grows anticlockwise on screen; CSS rotates clockwise.
      this.aimArrow.style.display = 'inline-block';
      this.aimArrow.style.transform = `rotate(${-degrees}deg)`;
    }
    setText(this.position, t('hns.position', { x: Math.round(own.x), y: Math.round(own.y) }));
  }

  private paintEnd(): void {
    if (!this.ended) {
      this.endNote.hidden = true;
      return;
    }
    this.endNote.hidden = false;
    replaceChildren(this.endNote,
      h('span', { text: t(END_KEYS[this.ended]) }), ' ',
      this.ended === 'over' ? h('a', { href: `#/hns/results/${this.matchId}`, text: t('hns.results') }) : null, ' ',
      this.ended === 'over' ? h('a', { href: `#/hns/replay/${this.matchId}`, text: t('hns.replay') }) : null,
    );
  }
}
