// Hide-and-seek matches: start one (variant, scripted seats), the running ones with watch and
// take-a-seat links, and the finished ones with replay and results. Refreshed every two seconds.
import { accessSignature, canManage, credential, forgetOwner, onAccessChange, pruneOwners, rememberOwner } from '../access/access';
import { accessProblemKey, authorizationHeaders } from '../access/permissions';
import { updateDebug } from '../app/debugState';
import { showNotice } from '../app/notices';
import { navigate } from '../app/router';
import type { Problem } from '../api/problems';
import { MAX_BOTS, createMatch, deleteMatch, freeSlots, listMatches, listVariants, replayFileUrl } from '../hns/api';
import type { MatchSummary } from '../hns/api';
import { resetHnsDebug, updateHnsDebug } from '../hns/debug';
import { cleanName, formatFinishedAt, secondsLeft, stageKey } from '../hns/format';
import { playerName, rememberName } from '../hns/name';
import { seatChip, setText } from '../hns/ui';
import { language, onLanguageChange, t } from '../i18n/i18n';
import { confirmDialog } from '../ui/dialog';
import { h, replaceChildren } from '../ui/dom';
import { problemMessage } from './problemText';
import type { View } from './view';

export const MATCHES_REFRESH_MS = 2000;
export const FALLBACK_VARIANTS = ['default', 'warren', 'long-hall', 'certification'];
type ListState = { phase: 'loading' } | { phase: 'error'; problem: Problem } | { phase: 'ready'; matches: MatchSummary[] };

export class HnsMatchesView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'hns-heading', 'data-testid': 'hns-matches' });
  private state: ListState = { phase: 'loading' };
  private variants: string[] = FALLBACK_VARIANTS;
  private variant = 'certification';
  private bots = MAX_BOTS;
  private name = playerName();
  private creating = false;
  private createProblem: Problem | null = null;
  private renderedSignature = '';
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeAccess: () => void;
  private destroyed = false;

  constructor() {
    resetHnsDebug('matches');
    updateDebug({ view: 'hns', school: null, arena: null });
    this.unsubscribe = onLanguageChange(() => {
      this.renderedSignature = '';
      this.render();
    });
    this.unsubscribeAccess = onAccessChange(() => this.render());
    this.render();
    void this.loadVariants();
    void this.load();
    this.timer = setInterval(() => void this.load(), MATCHES_REFRESH_MS);
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.timer);
    this.unsubscribe();
    this.unsubscribeAccess();
  }

  private async loadVariants(): Promise<void> {
    const result = await listVariants();
    if (this.destroyed || !result.ok || result.data.length === 0) return;
    this.variants = result.data;
    if (!this.variants.includes(this.variant)) this.variant = this.variants[0]!;
    this.renderedSignature = '';
    this.render();
  }

  private async load(): Promise<void> {
    const requestedAt = Date.now();
    const result = await listMatches();
    if (result.ok) pruneOwners('hns', result.data.map((m) => m.id), requestedAt);
    if (this.destroyed) return;
    if (result.ok) this.state = { phase: 'ready', matches: result.data };
    else if (this.state.phase !== 'ready') this.state = { phase: 'error', problem: result.problem };
    if (this.state.phase === 'ready') {
      updateHnsDebug({ matches: this.state.matches.map((m) => ({ id: m.id, phase: m.phase, tick: m.tick })) });
    }
    this.render();
  }

  private async create(): Promise<void> {
    if (this.creating) return;
    this.creating = true;
    this.createProblem = null;
    this.renderedSignature = '';
    this.render();
    const result = await createMatch({ variant: this.variant, bots: this.bots });
    if (result.ok) rememberOwner('hns', result.data.id, result.data.ownerToken); // even if the page is gone
    if (this.destroyed) return;
    this.creating = false;
    this.renderedSignature = '';
    if (!result.ok) {
      this.createProblem = result.problem;
      this.render();
      return;
    }
    await this.load();
    this.element.querySelector<HTMLElement>(`[data-match-id="${result.data.id}"] button`)?.focus();
  }

  private async remove(match: MatchSummary): Promise<void> {
    const confirmed = await confirmDialog({
      title: t('hns.stopTitle'),
      message: t('hns.stopConfirm', { id: match.id }),
      confirmLabel: t('hns.stop'),
      testId: 'confirm-stop',
    });
    if (!confirmed || this.destroyed) return;
    const sent = credential('hns', match.id);
    const result = await deleteMatch(match.id, authorizationHeaders(sent));
    if (result.ok || result.problem.status === 404) forgetOwner('hns', match.id);
    else showNotice({ key: accessProblemKey(result.problem, sent.kind, 'match') ?? 'hns.stopFailed', tone: 'error' });
    if (this.destroyed) return;
    this.renderedSignature = '';
    await this.load();
  }

  // Structure: ids, phases, seats and language. Ticks and times are patched in place so a refresh
  // never replaces a button under the pointer.
  private signature(): string {
    const state = this.state;
    const head = [language(), accessSignature(), this.variants, this.creating, this.createProblem?.status ?? null];
    if (state.phase !== 'ready') return JSON.stringify([...head, state.phase]);
    return JSON.stringify([...head, state.matches.map((m) => [m.id, m.phase, m.variant, m.gameVersion, canManage('hns', m.id), m.seats.map((s) => [s.kind, s.identity, s.side, s.connected])])]);
  }

  private render(): void {
    const signature = this.signature();
    if (signature === this.renderedSignature && this.state.phase === 'ready') {
      this.patch(this.state.matches);
      return;
    }
    this.renderedSignature = signature;
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
    const heading = h('div', { class: 'hns-header' },
      h('h1', { id: 'hns-heading', text: t('hns.heading') }),
      h('a', { href: '#/hns/leagues', class: 'nav-link', 'data-testid': 'hns-leagues-link', text: t('leagues.link') }),
      h('p', { class: 'hint', text: t('hns.intro') }),
    );
    const state = this.state;
    let body: HTMLElement;
    if (state.phase === 'loading') {
      body = h('p', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('common.loading'));
    } else if (state.phase === 'error') {
      body = h('div', { class: 'state state-error', 'data-testid': 'hns-error' },
        h('p', { text: t('hns.loadFailed') }),
        problemMessage(state.problem).element,
        h('button', { type: 'button', class: 'button', text: t('common.retry'), onclick: () => void this.load() }),
      );
    } else {
      const live = state.matches.filter((m) => m.phase !== 'finished');
      const finished = state.matches.filter((m) => m.phase === 'finished');
      body = h('div', {},
        h('section', { class: 'hns-section', 'aria-labelledby': 'hns-live' },
          h('h2', { id: 'hns-live', text: t('hns.live') }),
          live.length === 0
            ? h('p', { class: 'state state-empty', 'data-testid': 'hns-no-live', text: t('hns.noLive') })
            : h('div', { class: 'table-scroll' }, this.liveTable(live)),
        ),
        h('section', { class: 'hns-section', 'aria-labelledby': 'hns-finished' },
          h('h2', { id: 'hns-finished', text: t('hns.finished') }),
          finished.length === 0
            ? h('p', { class: 'state state-empty', 'data-testid': 'hns-no-finished', text: t('hns.noFinished') })
            : h('div', { class: 'table-scroll' }, this.finishedTable(finished)),
        ),
      );
    }
    replaceChildren(this.element, heading, this.createForm(), body);
    if (state.phase === 'ready') this.patch(state.matches);
    if (focused) this.element.querySelector<HTMLElement>(`[data-focus-key="${focused}"]`)?.focus();
  }

  private createForm(): HTMLElement {
    const variant = h('select', {
      class: 'input',
      'data-testid': 'hns-variant',
      'data-focus-key': 'variant',
      onchange: (e: Event) => (this.variant = (e.target as HTMLSelectElement).value),
    }, this.variants.map((v) => h('option', { value: v, text: v, selected: v === this.variant })));
    const bots = h('select', {
      class: 'input',
      'data-testid': 'hns-bots',
      'data-focus-key': 'bots',
      onchange: (e: Event) => (this.bots = Number((e.target as HTMLSelectElement).value)),
    }, Array.from({ length: MAX_BOTS + 1 }, (_, n) => h('option', { value: n, text: String(n), selected: n === this.bots })));
    const name = h('input', {
      class: 'input',
      type: 'text',
      maxlength: 24,
      value: this.name,
      'data-testid': 'hns-name',
      'data-focus-key': 'name',
      autocomplete: 'nickname',
      onchange: (e: Event) => {
        const input = e.target as HTMLInputElement;
        const cleaned = cleanName(input.value);
        this.name = cleaned || this.name;
        input.value = this.name;
        rememberName(this.name);
      },
    });
    return h('form', {
      class: 'hns-create',
      'aria-label': t('hns.create.title'),
      onsubmit: (e: Event) => {
        e.preventDefault();
        void this.create();
      },
    },
    h('label', {}, t('hns.create.variant'), variant),
    h('label', { title: t('hns.create.botsHint') }, t('hns.create.bots'), bots),
    h('button', {
      type: 'submit',
      class: 'button button-primary',
      'data-testid': 'hns-create',
      'data-focus-key': 'create',
      disabled: this.creating,
      text: this.creating ? t('hns.create.submitting') : t('hns.create.submit'),
    }),
    h('label', {}, t('hns.create.name'), name),
    h('p', { class: 'hint', text: t('hns.create.botsHint') }),
    this.createProblem ? h('div', { 'data-testid': 'hns-create-problem' }, problemMessage(this.createProblem).element) : null,
    );
  }

  private liveTable(matches: MatchSummary[]): HTMLElement {
    return h('table', { class: 'hns-table', 'data-testid': 'hns-live-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('hns.col.match') }),
        h('th', { scope: 'col', text: t('hns.col.stage') }),
        h('th', { scope: 'col', text: t('hns.col.tick') }),
        h('th', { scope: 'col', text: t('hns.col.seats') }),
        h('th', { scope: 'col', text: t('hns.col.spectators') }),
        h('th', { scope: 'col', text: t('hns.col.actions') }),
      )),
      h('tbody', {}, matches.map((m) => {
        const free = freeSlots(m);
        return h('tr', { 'data-testid': 'hns-match', 'data-match-id': m.id, 'data-phase': m.phase },
          h('th', { scope: 'row' }, m.id, h('br'), h('span', { class: 'muted', text: `${m.variant} · ${t('hns.gameVersion', { version: m.gameVersion })}` })),
          h('td', { 'data-live': 'stage' }),
          h('td', { class: 'num', 'data-live': 'tick' }),
          h('td', {}, h('ul', { class: 'seat-list' }, m.seats.map(seatChip))),
          h('td', { class: 'num', 'data-live': 'spectators' }),
          h('td', {}, h('div', { class: 'actions' },
            h('button', {
              type: 'button',
              class: 'button button-small button-primary',
              'data-testid': 'hns-watch-button',
              'data-focus-key': `watch-${m.id}`,
              text: t('hns.watch'),
              onclick: () => navigate({ name: 'hnsWatch', match: m.id }),
            }),
            free.map((slot) => h('button', {
              type: 'button',
              class: 'button button-small',
              'data-testid': 'hns-take-seat',
              'data-slot': slot,
              'data-focus-key': `seat-${m.id}-${slot}`,
              text: t('hns.takeSeat', { slot }),
              onclick: () => {
                rememberName(this.name);
                navigate({ name: 'hnsPlay', match: m.id, slot });
              },
            })),
            // In owners mode only the owner and the operator are offered it (the default match: the operator).
            canManage('hns', m.id)
              ? h('button', {
                type: 'button',
                class: 'button button-small button-danger',
                'data-testid': 'hns-delete',
                text: t('hns.stop'),
                onclick: () => void this.remove(m),
              })
              : null,
          )),
        );
      })),
    );
  }

  private finishedTable(matches: MatchSummary[]): HTMLElement {
    return h('table', { class: 'hns-table', 'data-testid': 'hns-finished-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('hns.col.match') }),
        h('th', { scope: 'col', text: t('hns.col.finishedAt') }),
        h('th', { scope: 'col', text: t('hns.col.tick') }),
        h('th', { scope: 'col', text: t('hns.col.seats') }),
        h('th', { scope: 'col', text: t('hns.col.actions') }),
      )),
      h('tbody', {}, matches.map((m) => h('tr', { 'data-testid': 'hns-finished-match', 'data-match-id': m.id },
        h('th', { scope: 'row' }, m.id, h('br'), h('span', { class: 'muted', text: m.variant })),
        h('td', { text: formatFinishedAt(m.finishedAt, language()) }),
        h('td', { class: 'num', text: String(m.tick) }),
        h('td', {}, h('ul', { class: 'seat-list' }, m.seats.map(seatChip))),
        h('td', {}, h('div', { class: 'actions' },
          h('button', {
            type: 'button',
            class: 'button button-small button-primary',
            'data-testid': 'hns-replay-link',
            'data-focus-key': `replay-${m.id}`,
            text: t('hns.replay'),
            onclick: () => navigate({ name: 'hnsReplay', match: m.id }),
          }),
          h('button', {
            type: 'button',
            class: 'button button-small',
            'data-testid': 'hns-results',
            'data-focus-key': `results-${m.id}`,
            text: t('hns.results'),
            onclick: () => navigate({ name: 'hnsResults', match: m.id }),
          }),
          h('a', { class: 'button button-small', href: replayFileUrl(m.id), download: `${m.id}.cowldhns`, text: t('hns.download') }),
        )),
      ))),
    );
  }

  private patch(matches: MatchSummary[]): void {
    for (const m of matches) {
      const row = this.element.querySelector<HTMLElement>(`tr[data-match-id="${m.id}"]`);
      if (!row) continue;
      const cell = (name: string) => row.querySelector<HTMLElement>(`[data-live="${name}"]`);
      const stage = cell('stage');
      if (stage) {
        const left = m.phase === 'playing' ? secondsLeft(m.phaseTicksLeft) : null;
        const parts = [t(stageKey(m))];
        if (m.games > 0 && m.phase !== 'lobby') parts.push(t('hns.score.gameOf', { game: m.game, games: m.games }));
        if (left !== null) parts.push(t('hns.score.seconds', { seconds: left }));
        setText(stage, parts.join(' · '));
      }
      const tick = cell('tick');
      if (tick) setText(tick, String(m.tick));
      const spectators = cell('spectators');
      if (spectators) setText(spectators, String(m.spectators));
    }
  }
}
