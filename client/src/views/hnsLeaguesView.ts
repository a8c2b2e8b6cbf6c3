// Leagues: the form that starts one and the leagues on this server with their progress, refreshed
// while any of them runs. A league started here opens its own page.
import { accessSignature, pruneOwners, rememberOwner } from '../access/access';
import { updateDebug } from '../app/debugState';
import { navigate, routeHash } from '../app/router';
import type { Problem } from '../api/problems';
import { listVariants } from '../hns/api';
import { resetHnsDebug } from '../hns/debug';
import { language, onLanguageChange, t } from '../i18n/i18n';
import { createLeague, listLeagues } from '../leagues/api';
import type { CreateLeagueRequest } from '../leagues/api';
import { isRunning } from '../leagues/decode';
import type { LeagueSummary } from '../leagues/decode';
import { DASH } from '../leagues/format';
import { LeagueForm } from '../leagues/leagueForm';
import { LIST_POLL_MS, PollTimer, nextPollDelay } from '../leagues/poll';
import { progressBar, stateBadge } from '../leagues/progressBar';
import '../leagues/leagues.css';
import { h, replaceChildren } from '../ui/dom';
import { FALLBACK_VARIANTS } from './hnsMatchesView';
import { problemMessage } from './problemText';
import type { View } from './view';

type ListState = { phase: 'loading' } | { phase: 'error'; problem: Problem } | { phase: 'ready'; leagues: LeagueSummary[]; problem: Problem | null };

export class HnsLeaguesView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'leagues-heading', 'data-testid': 'hns-leagues' });
  private readonly form: LeagueForm;
  private readonly listHost = h('section', { class: 'hns-section', 'aria-labelledby': 'leagues-list-heading' });
  private readonly headerHost = h('div', { class: 'hns-header' });
  private state: ListState = { phase: 'loading' };
  private readonly poll = new PollTimer(() => void this.load());
  private failures = 0;
  private creating = false;
  private renderedSignature = '';
  private readonly unsubscribe: () => void;
  private destroyed = false;

  constructor() {
    resetHnsDebug('leagues');
    updateDebug({ view: 'hns-leagues', school: null, arena: null });
    this.form = new LeagueForm(FALLBACK_VARIANTS, (request) => void this.create(request));
    replaceChildren(this.element, this.headerHost, this.form.element, this.listHost);
    this.unsubscribe = onLanguageChange(() => {
      this.form.relabel();
      this.renderedSignature = '';
      this.render();
    });
    this.render();
    void this.loadVariants();
    void this.load();
  }

  destroy(): void {
    this.destroyed = true;
    this.poll.stop();
    this.unsubscribe();
  }

  private async loadVariants(): Promise<void> {
    const result = await listVariants();
    if (!this.destroyed && result.ok) this.form.setVariants(result.data);
  }

  private async load(): Promise<void> {
    this.poll.clear();
    const requestedAt = Date.now();
    const result = await listLeagues();
    if (result.ok) pruneOwners('league', result.data.map((l) => l.id), requestedAt);
    if (this.destroyed) return;
    this.failures = result.ok ? 0 : this.failures + 1;
    if (result.ok) this.state = { phase: 'ready', leagues: result.data, problem: null };
    else if (this.state.phase === 'ready') this.state = { ...this.state, problem: result.problem };
    else this.state = { phase: 'error', problem: result.problem };
    this.render();
    this.poll.schedule(nextPollDelay(result, (leagues) => leagues.some(isRunning), this.failures, LIST_POLL_MS));
  }

  private async create(request: CreateLeagueRequest): Promise<void> {
    if (this.creating) return;
    this.creating = true;
    this.form.setBusy(true);
    const result = await createLeague(request);
    if (result.ok) rememberOwner('league', result.data.id, result.data.ownerToken); // even if the page is gone
    this.creating = false;
    if (this.destroyed) return;
    this.form.setBusy(false);
    if (!result.ok) {
      this.form.setProblem(result.problem);
      return;
    }
    navigate({ name: 'hnsLeague', league: result.data.id });
  }

  private signature(): string {
    const s = this.state;
    const head = [language(), accessSignature(), s.phase];
    if (s.phase === 'loading') return JSON.stringify(head);
    if (s.phase === 'error') return JSON.stringify([...head, s.problem]);
    return JSON.stringify([...head, s.problem, s.leagues]);
  }

  private render(): void {
    replaceChildren(this.headerHost,
      h('h1', { id: 'leagues-heading', text: t('leagues.heading') }),
      h('a', { href: routeHash({ name: 'hns' }), class: 'nav-link', 'data-testid': 'leagues-back', text: t('leagues.backToMatches') }),
      h('p', { class: 'hint', text: t('leagues.intro') }),
    );
    const signature = this.signature();
    if (signature === this.renderedSignature) return;
    this.renderedSignature = signature;
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
    const s = this.state;
    const title = h('h2', { id: 'leagues-list-heading', text: t('leagues.list.title') });
    if (s.phase === 'loading') {
      replaceChildren(this.listHost, title, h('p', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('common.loading')));
    } else if (s.phase === 'error') {
      replaceChildren(this.listHost, title, h('div', { class: 'state state-error', 'data-testid': 'leagues-error' },
        h('p', { text: t('leagues.loadFailed') }),
        problemMessage(s.problem).element,
        h('button', { type: 'button', class: 'button', 'data-focus-key': 'retry', text: t('common.retry'), onclick: () => void this.load() }),
      ));
    } else {
      replaceChildren(this.listHost, title,
        s.problem ? h('div', { class: 'state state-error', 'data-testid': 'leagues-error' }, problemMessage(s.problem).element) : null,
        s.leagues.length === 0
          ? h('p', { class: 'state state-empty', 'data-testid': 'leagues-empty', text: t('leagues.list.empty') })
          : h('div', { class: 'table-scroll' }, this.table(s.leagues)),
      );
    }
    if (focused) this.element.querySelector<HTMLElement>(`[data-focus-key="${focused}"]`)?.focus();
  }

  private table(leagues: LeagueSummary[]): HTMLElement {
    return h('table', { class: 'hns-table', 'data-testid': 'leagues-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('leagues.col.league') }),
        h('th', { scope: 'col', text: t('leagues.col.state') }),
        h('th', { scope: 'col', text: t('leagues.col.progress') }),
        h('th', { scope: 'col', text: t('leagues.col.entrants') }),
        h('th', { scope: 'col', text: t('leagues.col.variant') }),
        h('th', { scope: 'col', text: t('leagues.col.actions') }),
      )),
      h('tbody', {}, leagues.map((league) => h('tr', { 'data-testid': 'leagues-row', 'data-league-id': league.id, 'data-state': league.state },
        h('th', { scope: 'row', text: league.id }),
        h('td', {}, stateBadge(league.state)),
        h('td', {}, progressBar(league.progress, league.state)),
        h('td', {}, h('ul', { class: 'seat-list' }, league.entrants.map((e) => {
          const kind = e.fallback ? `${e.kind} · ${e.fallback}` : e.kind;
          return h('li', { class: 'seat-chip', title: kind }, h('span', { class: 'seat-name', text: e.name }), h('span', { class: 'seat-kind', text: kind }));
        }))),
        h('td', { text: league.variant || DASH }),
        h('td', {}, h('a', {
          class: 'button button-small button-primary',
          href: routeHash({ name: 'hnsLeague', league: league.id }),
          'data-testid': 'leagues-open',
          'data-focus-key': `open-${league.id}`,
          text: t('leagues.open'),
        })),
      ))),
    );
  }
}
