// One open school: the live calendar with play/pause and speeds, the map tree, people, activities.
// In owners mode the server obeys play/pause and speed only on a socket opened with this school's
// owner token or the operator's (`/ws/game?ownerToken=…`), so the socket is dialled once the mode is
// known, re-dialled when the tokens this browser holds change, and the controls are offered only with
// such a token; without one the clock is shown read-only.
import { accessMode, canControlSchool, onAccessChange, schoolSocketTokenList } from '../access/access';
import { listSchools } from '../api/schools';
import { updateDebug } from '../app/debugState';
import { showNotice } from '../app/notices';
import { navigate } from '../app/router';
import { SPEED_LABELS, formatGameDate, formatGameTime, speedLabel } from '../format/dateTime';
import { language, localeByte, onLanguageChange, t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import { v4 } from '../net/protocol';
import { buildTree, filterTree } from '../school/mapFilter';
import type { TreeNode } from '../school/mapFilter';
import { gameSocketUrl } from '../net/reconnectingSocket';
import { SchoolSession } from '../school/schoolSession';
import type { SchoolSessionState } from '../school/schoolSession';
import { ConnectionBanner } from '../ui/connectionBanner';
import { h, replaceChildren } from '../ui/dom';
import type { View } from './view';

// Longer item and position lists (a classroom has 30 seats) fold away behind a summary.
const INLINE_ENTRY_LIMIT = 6;

function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

const KIND_KEYS: Record<number, MessageKey> = {
  [v4.NodeKind.Territory]: 'kind.territory',
  [v4.NodeKind.Building]: 'kind.building',
  [v4.NodeKind.Floor]: 'kind.floor',
  [v4.NodeKind.Room]: 'kind.room',
};

export class SchoolView implements View {
  readonly element = h('section', { class: 'view school-view', 'aria-labelledby': 'school-heading', 'data-testid': 'school' });
  private session: SchoolSession;
  private readonly banner: ConnectionBanner;
  private readonly heading = h('h1', { id: 'school-heading' });
  private readonly clockPanel = h('section', { class: 'panel clock-panel', 'aria-labelledby': 'clock-heading', 'data-testid': 'clock' });
  private readonly mapPanel = h('section', { class: 'panel map-panel', 'aria-labelledby': 'map-heading' });
  private readonly peoplePanel = h('section', { class: 'panel', 'aria-labelledby': 'people-heading', 'data-testid': 'people' });
  private readonly activitiesPanel = h('section', { class: 'panel', 'aria-labelledby': 'activities-heading', 'data-testid': 'activities' });
  private readonly treeHost = h('div', { class: 'map-tree-host' });
  private readonly clockWaiting = h('p', { class: 'state state-loading', role: 'status' });
  private readonly clockDate = h('p', { class: 'clock-date', 'data-testid': 'game-date' });
  private readonly clockTime = h('p', { class: 'clock-time', 'data-testid': 'game-time' });
  private readonly runState = h('p', { class: 'badge', 'data-testid': 'run-state' });
  private readonly controls = h('div', { class: 'clock-controls', 'data-testid': 'clock-controls' });
  private readonly readOnly = h('div', { class: 'clock-readonly', 'data-testid': 'clock-readonly' });
  private readonly speedReadout = h('p', { class: 'clock-speed', 'data-testid': 'speed-readout' });
  private readonly playPause: HTMLButtonElement;
  private readonly speedButtons: HTMLButtonElement[];
  private readonly searchInput: HTMLInputElement;
  private state: SchoolSessionState;
  private schoolName: string | null = null;
  private selectedNodeId: string | null = null;
  private query = '';
  private tree: TreeNode[] = [];
  private treeSource: v4.MapNode[] | null = null;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeAccess: () => void;
  private socketUrl: string | null = null; // null until the mode is known and the socket dialled
  private destroyed = false;

  constructor(private readonly schoolId: number) {
    this.banner = new ConnectionBanner(() => this.session.retryNow());
    this.searchInput = h('input', {
      id: 'map-search',
      class: 'input',
      type: 'search',
      'data-testid': 'map-search',
      oninput: (event: Event) => {
        this.query = (event.target as HTMLInputElement).value;
        this.renderTree();
      },
    });
    // Reads `running` from the latest server clock at click time, never from a copy of our own.
    this.playPause = h('button', {
      type: 'button',
      class: 'button button-primary',
      'data-testid': 'play-pause',
      onclick: () => {
        const clock = this.state.clock;
        if (clock && this.controlsOffered()) this.session.setRunning(clock.running !== 1);
      },
    });
    this.speedButtons = SPEED_LABELS.map((label, index) => h('button', {
      type: 'button',
      class: 'button speed-button',
      'data-testid': `speed-${index}`,
      text: label,
      onclick: () => {
        if (this.controlsOffered()) this.session.setSpeed(index);
      },
    }));
    this.session = this.createSession();
    this.state = this.session.current();
    this.unsubscribe = onLanguageChange(() => {
      // Map labels come in the Hello locale, so a new language needs a new connection.
      this.session.stop();
      this.session = this.createSession();
      this.state = this.session.current();
      if (this.socketUrl !== null) this.session.reconnectTo(this.socketUrl);
      this.render();
    });
    // A school created or deleted (here or in another tab), the operator token set or cleared.
    this.unsubscribeAccess = onAccessChange(() => {
      this.dialIfChanged();
      this.renderClock();
      this.publishDebug();
    });
    this.render();
    this.dialIfChanged();
    void this.loadName();
  }

  destroy(): void {
    this.destroyed = true;
    this.unsubscribe();
    this.unsubscribeAccess();
    this.session.stop();
    this.banner.destroy();
  }

  private controlsOffered(): boolean {
    return canControlSchool(this.schoolId);
  }

  // The URL depends on the mode and the tokens: nothing is dialled before /health answers (App asks),
  // and a changed token list means a new socket, as the server reads it only at the upgrade.
  private dialIfChanged(): void {
    if (this.destroyed || accessMode() === null) return;
    const url = gameSocketUrl(globalThis.location, schoolSocketTokenList(this.schoolId));
    if (url === this.socketUrl) return;
    this.socketUrl = url;
    this.session.reconnectTo(url); // the first connection too: the session is never start()ed here
  }

  private createSession(): SchoolSession {
    return new SchoolSession(this.schoolId, localeByte(language()), {
      onChange: (state) => {
        this.state = state;
        this.banner.update(state.connection);
        this.renderClock();
        if (state.map !== this.treeSource) this.renderTree();
        this.publishDebug();
      },
      onGone: () => {
        if (this.destroyed) return;
        showNotice({ key: 'notice.schoolGone', tone: 'info' });
        navigate({ name: 'menu' });
      },
    });
  }

  private async loadName(): Promise<void> {
    const result = await listSchools();
    if (this.destroyed || !result.ok) return;
    const school = result.data.schools?.find((s) => s.id === this.schoolId);
    if (school) {
      this.schoolName = school.name;
      this.renderHeading();
    }
  }

  private publishDebug(): void {
    const clock = this.state.clock;
    updateDebug({
      view: 'school',
      school: {
        id: this.schoolId,
        gameTimeMs: clock?.gameTimeMs ?? null,
        running: clock ? clock.running === 1 : null,
        speedIndex: clock?.speedIndex ?? null,
        controls: this.controlsOffered(),
        nodes: this.state.map?.length ?? 0,
      },
    });
  }

  private render(): void {
    this.renderHeading();
    this.banner.render();
    replaceChildren(
      this.element,
      h('div', { class: 'school-header' },
        h('button', {
          type: 'button',
          class: 'button',
          'data-testid': 'back-to-menu',
          text: `← ${t('school.back')}`,
          onclick: () => navigate({ name: 'menu' }),
        }),
        this.heading,
      ),
      this.banner.element,
      h('div', { class: 'school-grid' },
        this.clockPanel,
        this.mapPanel,
        this.peoplePanel,
        this.activitiesPanel,
      ),
    );
    this.buildClock();
    this.renderClock();
    this.renderMapPanel();
    replaceChildren(this.peoplePanel,
      h('h2', { id: 'people-heading', text: t('school.people') }),
      h('p', { class: 'state state-empty', text: t('school.peopleEmpty') }));
    replaceChildren(this.activitiesPanel,
      h('h2', { id: 'activities-heading', text: t('school.activities') }),
      h('p', { class: 'state state-empty', text: t('school.activitiesEmpty') }));
    this.publishDebug();
  }

  private renderHeading(): void {
    this.heading.textContent = this.schoolName ?? t('school.heading', { id: this.schoolId });
  }

  // The clock updates 20 times a second, so its elements are built once and patched in place:
  // replacing a button between mousedown and mouseup would swallow the click.
  private buildClock(): void {
    const speeds = h('div', { class: 'speed-group', role: 'group', 'aria-labelledby': 'speed-label' },
      this.speedButtons);
    replaceChildren(this.clockPanel,
      h('h2', { id: 'clock-heading', text: t('school.clock') }),
      this.clockWaiting,
      h('div', { class: 'clock-live' },
        this.clockDate,
        this.clockTime,
        this.runState,
        this.controls,
        this.readOnly,
      ),
    );
    replaceChildren(this.controls,
      this.playPause,
      h('span', { id: 'speed-label', class: 'speed-label', text: t('school.speed') }),
      speeds,
    );
    replaceChildren(this.readOnly,
      this.speedReadout,
      h('p', { class: 'hint', text: t('school.controlsReadOnly') }),
    );
    replaceChildren(this.clockWaiting, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('school.waitingClock'));
  }

  private renderClock(): void {
    const clock = this.state.clock;
    const connected = this.state.connection.phase === 'open';
    const live = this.clockPanel.querySelector<HTMLElement>('.clock-live');
    this.clockWaiting.hidden = clock !== null;
    if (live) live.hidden = clock === null;
    if (!clock) {
      this.clockPanel.removeAttribute('data-game-time-ms');
      this.clockPanel.removeAttribute('data-running');
      this.clockPanel.removeAttribute('data-speed-index');
      return;
    }
    const running = clock.running === 1;
    this.clockPanel.dataset.gameTimeMs = String(clock.gameTimeMs);
    this.clockPanel.dataset.running = String(running);
    this.clockPanel.dataset.speedIndex = String(clock.speedIndex);
    setText(this.clockDate, formatGameDate(clock.gameTimeMs, language()));
    setText(this.clockTime, formatGameTime(clock.gameTimeMs));
    setText(this.runState, running ? t('school.running') : t('school.paused'));
    this.runState.className = running ? 'badge badge-running' : 'badge badge-paused';
    const offered = this.controlsOffered();
    this.controls.hidden = !offered;
    this.readOnly.hidden = offered;
    setText(this.speedReadout, t('school.speedReadout', { speed: speedLabel(clock.speedIndex) }));
    setText(this.playPause, running ? t('school.pause') : t('school.play'));
    this.playPause.dataset.running = String(running);
    this.playPause.disabled = !connected || !offered;
    this.speedButtons.forEach((button, index) => {
      button.setAttribute('aria-pressed', clock.speedIndex === index ? 'true' : 'false');
      button.disabled = !connected || !offered;
    });
  }

  private renderMapPanel(): void {
    this.searchInput.placeholder = t('school.searchPlaceholder');
    replaceChildren(this.mapPanel,
      h('h2', { id: 'map-heading', text: t('school.map') }),
      h('label', { for: 'map-search', class: 'visually-hidden', text: t('school.search') }),
      this.searchInput,
      this.treeHost,
    );
    this.renderTree();
  }

  private renderTree(): void {
    const map = this.state.map;
    if (map !== this.treeSource) {
      this.treeSource = map;
      this.tree = map ? buildTree(map) : [];
    }
    if (!map) {
      replaceChildren(this.treeHost, h('p', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('school.mapLoading')));
      return;
    }
    if (map.length === 0) {
      replaceChildren(this.treeHost, h('p', { class: 'state state-empty', text: t('school.mapEmpty') }));
      return;
    }
    const visible = filterTree(this.tree, this.selectedNodeId, this.query);
    const selected = this.selectedNodeId ? map.find((n) => n.id === this.selectedNodeId) : undefined;
    const filterBar = selected ? h('p', { class: 'filter-bar' },
      h('span', { text: t('school.filteredBy', { name: selected.name || selected.id }) }), ' ',
      h('button', { type: 'button', class: 'button button-small', 'data-testid': 'show-all', text: t('school.showAll'), onclick: () => this.select(null) })) : null;
    replaceChildren(this.treeHost,
      filterBar,
      visible.length === 0
        ? h('p', { class: 'state state-empty', 'data-testid': 'no-matches', text: t('school.noMatches') })
        : h('ul', { class: 'tree', 'data-testid': 'map-tree' }, visible.map((entry) => this.treeItem(entry))),
    );
  }

  private select(nodeId: string | null): void {
    this.selectedNodeId = nodeId;
    this.renderTree();
    const target = nodeId ? this.treeHost.querySelector<HTMLElement>(`[data-node-button="${CSS.escape(nodeId)}"]`) : this.searchInput;
    target?.focus();
  }

  // A search hit inside a folded list opens it, so the match is visible.
  private revealsMatch(values: string[]): boolean {
    const needle = this.query.trim().toLocaleLowerCase();
    return needle !== '' && values.some((value) => value.toLocaleLowerCase().includes(needle));
  }

  private treeItem(entry: TreeNode): HTMLElement {
    const { node } = entry;
    const list = (label: string, values: string[]) => values.length > INLINE_ENTRY_LIMIT
      ? h('details', { class: 'node-detail', open: this.revealsMatch(values) },
          h('summary', {}, h('span', { class: 'node-detail-label', text: `${label} (${values.length})` })),
          values.join(', '))
      : h('p', { class: 'node-detail' },
          h('span', { class: 'node-detail-label', text: `${label}: ` }),
          values.length > 0 ? values.join(', ') : h('span', { class: 'muted', text: t('school.none') }));
    return h('li', { class: 'tree-node', 'data-node-id': node.id, 'data-testid': 'tree-node' },
      h('div', { class: 'tree-row' },
        h('span', { class: `kind-tag kind-${node.kind}`, text: t(KIND_KEYS[node.kind] ?? 'kind.room') }),
        h('button', {
          type: 'button',
          class: 'link-button',
          'data-node-button': node.id,
          'aria-pressed': this.selectedNodeId === node.id ? 'true' : 'false',
          text: node.name || node.id,
          onclick: () => this.select(this.selectedNodeId === node.id ? null : node.id),
        }),
      ),
      list(t('school.items'), node.items),
      list(t('school.positions'), node.positions),
      entry.children.length > 0 ? h('ul', { class: 'tree' }, entry.children.map((child) => this.treeItem(child))) : null,
    );
  }
}
