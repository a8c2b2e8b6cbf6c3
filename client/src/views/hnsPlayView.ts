// Playing a seat by hand: /player (1×, 720×400) registered as "manual", the keyboard (or the on-screen
// buttons) as a Sprite v1 button mask, the own cog centred, its aim from the label, the stage and the
// time left from the match REST, and which side the seat is on in each game.
import { sideOf } from '../hns/api';
import type { MatchDetail, Side } from '../hns/api';
import { boardCounts, updateHnsDebug } from '../hns/debug';
import { CONTROL_ROWS, HnsKeys, MaskSender } from '../hns/keyboard';
import { bradsToDegrees, readOwnCog } from '../hns/labels';
import type { Cog } from '../hns/labels';
import { hnsSocketUrl } from '../hns/session';
import { fieldsFromSummary, matchHeader, setText } from '../hns/ui';
import { playerName } from '../hns/name';
import { sideKey } from '../hns/format';
import { t } from '../i18n/i18n';
import { h, replaceChildren } from '../ui/dom';
import { HnsBoardPage } from './hnsBoardPage';
import type { View } from './view';

export const REGISTER_MANUAL = JSON.stringify({ type: 'register', mode: 'manual' });
const CAMERA_ZOOM = 1.5;
const HUD_READ_MS = 100;

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export class HnsPlayView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'hns-play-heading', 'data-testid': 'hns-play' });
  private readonly page: HnsBoardPage;
  private readonly canvasHost = h('div', { class: 'hns-canvas', tabindex: '0', 'data-testid': 'hns-stage' });
  private readonly sideNow = h('p', { class: 'side-now', 'data-testid': 'hns-side' });
  private readonly sides = h('ul', { class: 'sides', 'data-testid': 'hns-sides' });
  private readonly aim = h('p', { 'data-testid': 'hns-aim' });
  private readonly aimArrow = h('span', { class: 'aim-arrow', 'aria-hidden': 'true', text: '➜' });
  private readonly position = h('p', { class: 'muted', 'data-testid': 'hns-position' });
  private readonly seatNote = h('p', { class: 'muted', 'data-testid': 'hns-seat' });
  private readonly controlButtons: HTMLButtonElement[] = [];
  private readonly keys = new HnsKeys();
  private readonly masks: MaskSender;
  private readonly name = playerName();
  private match: MatchDetail | null = null;
  private own: Cog | null = null;

  // token: a league seat's (from /client/player); the configured roster then names the seat.
  constructor(private readonly matchId: string, private readonly slot: number, token?: string) {
    this.page = new HnsBoardPage({
      view: 'play',
      matchId,
      url: hnsSocketUrl('/player', token ? { match: matchId, slot, token } : { match: matchId, slot, name: this.name }),
      canvasHost: this.canvasHost,
      render: () => this.render(),
      stage: {
        grid: true,
        zoom: CAMERA_ZOOM,
        follow: () => (this.own ? { x: this.own.x, y: this.own.y } : null),
      },
      scoreboardBoardLine: false,
      endLinks: true,
      // Register on every (re)connection, then say what is held right now.
      onOpen: (sendText) => {
        sendText(REGISTER_MANUAL);
        this.masks.reset();
        queueMicrotask(() => this.sendMask());
      },
      onEnd: () => {
        this.keys.releaseAll();
        updateHnsDebug({ mask: 0 });
      },
    });
    this.masks = new MaskSender((mask) => this.page.session.sendMask(mask));
    this.render();
    window.addEventListener('keydown', this.onKeyDown);
    window.addEventListener('keyup', this.onKeyUp);
    window.addEventListener('blur', this.onBlur);
    this.page.session.start();
    this.page.followLiveMatch(false, (match) => this.showMatch(match));
    this.page.every(HUD_READ_MS, () => this.readOwn());
  }

  destroy(): void {
    window.removeEventListener('keydown', this.onKeyDown);
    window.removeEventListener('keyup', this.onKeyUp);
    window.removeEventListener('blur', this.onBlur);
    this.page.destroy();
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

  private showMatch(match: MatchDetail): void {
    this.match = match;
    this.paintMatch();
  }

  private readOwn(): void {
    this.own = readOwnCog(this.page.session.stream.world, this.slot);
    const own = this.own;
    updateHnsDebug({
      ...boardCounts(this.page.stage, this.page.session),
      own: own ? { slot: own.slot, x: own.x, y: own.y, aim: own.aim, side: own.side } : null,
    });
    this.paintOwn();
  }

  private currentSide(): Side {
    const seat = this.match?.seats[this.slot];
    return seat?.side ?? this.own?.side ?? sideOf(this.slot, this.match?.game || 1);
  }

  private render(): void {
    this.page.relabel();
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
      matchHeader('hns-play-heading', t('hns.playHeading', { id: this.matchId, slot: this.slot })),
      this.page.banner.element,
      this.page.endNote,
      this.page.scoreboard.element,
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
    this.page.repaint();
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
    if (match) this.page.scoreboard.update(fieldsFromSummary(match));
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
}
