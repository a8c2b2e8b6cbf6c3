// The arena over protocol v5: the own avatar predicted (it answers on the next frame), the others
// interpolated 100 ms back, the far-density layer, a camera on larger worlds, ping and the
// measured key-to-screen latency.
import { waitNotice } from '../arena/arenaConnection';
import type { WaitNotice } from '../arena/arenaConnection';
import { V5Session } from '../arena/v5Session';
import { HeldKeys } from '../arena/keyboard';
import { KeyToScreen } from '../arena/keyToScreen';
import { PixiScene } from '../arena/pixiScene';
import { INTERPOLATION_DELAY_MS } from '../arena/snapshotBuffer';
import { WorldRenderer } from '../arena/worldRenderer';
import { updateDebug } from '../app/debugState';
import type { DebugState } from '../app/debugState';
import { onLanguageChange, t } from '../i18n/i18n';
import { v1 } from '../net/protocol';
import type { ConnectionState } from '../net/reconnectingSocket';
import { ConnectionBanner } from '../ui/connectionBanner';
import { h, replaceChildren } from '../ui/dom';
import type { View } from './view';

const NAME_SUFFIX_RANGE = 10_000;

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export class ArenaView implements View {
  readonly element = h('section', { class: 'view arena-view', 'aria-labelledby': 'arena-heading', 'data-testid': 'arena' });
  private readonly canvasHost = h('div', { class: 'arena-canvas', tabindex: '0', 'data-testid': 'arena-stage' });
  private readonly hud = h('p', { class: 'arena-hud', 'aria-live': 'off' });
  private readonly notice = h('p', { class: 'note note-warning', hidden: true });
  private readonly keys = new HeldKeys();
  private readonly session: V5Session;
  private readonly banner: ConnectionBanner;
  private readonly scene = new PixiScene(() => t('arena.you'));
  private readonly renderer = new WorldRenderer(this.scene);
  private readonly sceneReady: Promise<void>;
  private readonly unsubscribe: () => void;
  private rttMs: number | null = null;
  private connection: ConnectionState = { phase: 'connecting', attempt: 1 };
  private destroyed = false;
  private drawn: Array<{ id: number; x: number; y: number }> = [];
  private playerCount = 0;
  private obstacles: v1.EntityState[] = [];
  private readonly keyToScreen = new KeyToScreen();
  private ownDrawn: { x: number; y: number } | null = null; // in the frame being drawn
  private farTick = -1;
  private waitNotice: WaitNotice | null = null;

  constructor() {
    this.banner = new ConnectionBanner(() => this.session.retryNow());
    this.session = new V5Session(`guest-${Math.floor(Math.random() * NAME_SUFFIX_RANGE)}`, () => this.keys.mask(), {
      onConnection: (state) => {
        this.connection = state;
        this.banner.update(state);
        // 1013 is "try again later": a full arena, or a busy server; each deserves its own words.
        this.waitNotice = waitNotice(state);
        this.renderNotice();
        if (state.phase !== 'open') {
          this.renderer.clear();
          this.keyToScreen.reset();
        }
      },
      onWelcome: (welcome, world) => {
        this.obstacles = world.obstacles.map((o, i) => ({
          id: world.firstId + i, kind: v1.EntityKind.Obstacle, x: o.x, y: o.y, radius: o.radius, colour: world.colour,
        }));
        this.farTick = -1;
        void this.sceneReady.then(() => this.scene.setWorld(welcome.width, welcome.height));
      },
      onPing: (rtt) => {
        this.rttMs = rtt;
      },
    });
    this.unsubscribe = onLanguageChange(() => this.render());
    this.render();
    window.addEventListener('keydown', this.onKeyDown);
    window.addEventListener('keyup', this.onKeyUp);
    window.addEventListener('blur', this.onBlur);
    this.sceneReady = this.scene.init(this.canvasHost).then(() => {
      if (this.destroyed) return;
      this.scene.onFrame(() => this.frame());
      this.scene.onRendered(() => this.rendered());
    });
    this.session.start();
    this.publishDebug();
  }

  destroy(): void {
    this.destroyed = true;
    this.unsubscribe();
    window.removeEventListener('keydown', this.onKeyDown);
    window.removeEventListener('keyup', this.onKeyUp);
    window.removeEventListener('blur', this.onBlur);
    this.session.stop();
    this.banner.destroy();
    // Pixi cannot be destroyed mid-init; wait for it.
    void this.sceneReady.then(() => this.scene.destroy());
    updateDebug({ arena: null });
  }

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    const before = this.keys.mask();
    if (this.keys.press(event.code)) event.preventDefault(); // arrows would scroll the page
    this.maskMayHaveChanged(before, event.timeStamp);
  };

  private readonly onKeyUp = (event: KeyboardEvent) => {
    const before = this.keys.mask();
    if (this.keys.release(event.code)) event.preventDefault();
    this.maskMayHaveChanged(before, event.timeStamp);
  };

  // A key released while the window had no focus never sends keyup: forget everything held.
  private readonly onBlur = () => {
    const before = this.keys.mask();
    this.keys.releaseAll();
    this.maskMayHaveChanged(before, performance.now());
  };

  private maskMayHaveChanged(before: number, at: number): void {
    const after = this.keys.mask();
    if (after === before) return;
    this.keyToScreen.maskChanged(before, after, at);
    this.session.inputChanged();
  }

  private renderNotice(): void {
    this.notice.hidden = this.waitNotice === null;
    this.notice.textContent = this.waitNotice === 'serverBusy' ? t('arena.serverBusy') : t('arena.full');
  }

  private render(): void {
    this.banner.render();
    this.renderNotice();
    replaceChildren(
      this.element,
      h('div', { class: 'arena-header' },
        h('h1', { id: 'arena-heading', text: t('arena.heading') }),
        h('p', { class: 'hint', text: t('arena.help') }),
        this.hud,
      ),
      this.banner.element,
      this.notice,
      this.canvasHost,
    );
    this.paintHud();
  }

  private frame(): void {
    this.session.pump();
    const now = performance.now();
    const welcome = this.session.welcome;
    const others = this.session.buffer.sample(now - INTERPOLATION_DELAY_MS);
    const own = this.session.ownPosition(now);
    const ownId = welcome?.playerId ?? null;
    const entities = [...this.obstacles, ...others];
    this.ownDrawn = null;
    if (own && welcome) {
      const self = this.session.replica.entries().find((e) => e.slot === welcome.selfSlot);
      entities.push({ id: welcome.playerId, kind: v1.EntityKind.Player, x: own.x, y: own.y, radius: welcome.playerRadius, colour: self?.colour ?? 0xffffff });
      this.scene.follow(own.x, own.y);
      this.ownDrawn = own;
    }
    if (welcome && this.session.replica.tick !== this.farTick && this.session.replica.far.length > 0) {
      this.farTick = this.session.replica.tick;
      this.scene.drawFar(this.session.replica.far, this.session.replica.farCols, welcome.cellSize);
    }
    this.renderer.render(entities, ownId);
    this.drawn = entities.filter((e) => e.kind === v1.EntityKind.Player).map((e) => ({ id: e.id, x: e.x, y: e.y }));
    this.playerCount = this.drawn.length;
  }

  // After Pixi drew the frame: key to screen ends here, so the frame's own drawing is counted.
  private rendered(): void {
    this.keyToScreen.frameDrawn(this.ownDrawn, performance.now());
    this.paintHud();
    this.publishDebug();
  }

  private paintHud(): void {
    const players = this.playerCount;
    const ping = this.rttMs === null ? t('conn.pingUnknown') : t('conn.ping', { ms: this.rttMs });
    const text = this.connection.phase === 'open' && !this.session.welcome
      ? t('arena.waiting')
      : [ping, t('arena.players', { count: players }), ...(this.keyToScreen.latencyMs === null ? [] : [t('arena.latency', { ms: this.keyToScreen.latencyMs })])].join(' · ');
    if (this.hud.textContent !== text) this.hud.textContent = text;
    this.hud.dataset.testid = 'arena-hud';
  }

  private publishDebug(): void {
    const welcome = this.session.welcome;
    const arena: DebugState['arena'] = {
      playerId: welcome?.playerId ?? null,
      world: welcome ? { width: welcome.width, height: welcome.height } : null,
      entities: this.drawn,
      inputSequence: this.session.sequence,
      rttMs: this.rttMs,
      protocol: 5,
      ackSeq: this.session.ackSeq,
      corrections: this.session.corrections,
      inputLatencyMs: this.keyToScreen.latencyMs,
      inputLatencyCount: this.keyToScreen.measured,
      renderer: this.scene.rendererKind,
      predicted: this.session.predictedPosition(),
    };
    updateDebug({ view: 'arena', school: null, arena });
  }
}
