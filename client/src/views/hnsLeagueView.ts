// One league: state and progress (read every second while it runs, never after it ends or the page
// is left), Stop for its owner, the table with interval bars, the pairwise grid and every match with
// a link to its replay view.
import { accessSignature, canManage, credential, onAccessChange } from '../access/access';
import { accessProblemKey, authorizationHeaders } from '../access/permissions';
import { updateDebug } from '../app/debugState';
import { routeHash } from '../app/router';
import type { Problem } from '../api/problems';
import { resetHnsDebug, updateHnsDebug } from '../hns/debug';
import { language, onLanguageChange, t } from '../i18n/i18n';
import type { MessageKey } from '../i18n/i18n';
import { getLeague, stopLeague } from '../leagues/api';
import { isRunning, needsPolling } from '../leagues/decode';
import type { LeagueDetail } from '../leagues/decode';
import { DASH } from '../leagues/format';
import { rankEntrants } from '../leagues/grid';
import { pairGrid } from '../leagues/pairGrid';
import { LEAGUE_POLL_MS, PollTimer, nextPollDelay } from '../leagues/poll';
import { progressBar, stateBadge } from '../leagues/progressBar';
import { methodNote, ratingTable } from '../leagues/ratingTable';
import { RESULTS_PAGE, resultsTable } from '../leagues/resultsTable';
import '../leagues/leagues.css';
import { confirmDialog } from '../ui/dialog';
import { h, replaceChildren } from '../ui/dom';
import { problemMessage } from './problemText';
import type { View } from './view';

type StopProblem = { key: MessageKey } | { problem: Problem };

export class HnsLeagueView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'league-heading', 'data-testid': 'hns-league' });
  private league: LeagueDetail | null = null;
  private problem: Problem | null = null;
  private stopProblem: StopProblem | null = null;
  private stopping = false;
  private shown = RESULTS_PAGE;
  private failures = 0;
  private readonly poll = new PollTimer(() => void this.load());
  private renderedSignature = '';
  private readonly unsubscribe: () => void;
  private readonly unsubscribeAccess: () => void;
  private destroyed = false;

  constructor(private readonly leagueId: string) {
    resetHnsDebug('league');
    updateDebug({ view: 'hns-league', school: null, arena: null });
    this.unsubscribe = onLanguageChange(() => this.render());
    this.unsubscribeAccess = onAccessChange(() => this.render());
    this.render();
    void this.load();
  }

  destroy(): void {
    this.destroyed = true;
    this.poll.stop();
    this.unsubscribe();
    this.unsubscribeAccess();
  }

  private async load(): Promise<void> {
    this.poll.clear();
    updateHnsDebug({ polling: true });
    const result = await getLeague(this.leagueId);
    if (this.destroyed) return;
    this.failures = result.ok ? 0 : this.failures + 1;
    if (result.ok) {
      this.league = result.data;
      this.problem = null;
    } else {
      this.problem = result.problem;
    }
    this.render();
    this.poll.schedule(nextPollDelay(result, needsPolling, this.failures, LEAGUE_POLL_MS));
    updateHnsDebug({ polling: this.poll.pending });
  }

  private async stop(): Promise<void> {
    const confirmed = await confirmDialog({
      title: t('leagues.stopTitle'),
      message: t('leagues.stopConfirm', { id: this.leagueId }),
      confirmLabel: t('leagues.stop'),
      testId: 'confirm-stop-league',
    });
    if (!confirmed || this.destroyed || this.stopping) return;
    this.stopping = true;
    this.stopProblem = null;
    this.render();
    const sent = credential('league', this.leagueId);
    const result = await stopLeague(this.leagueId, authorizationHeaders(sent));
    this.stopping = false;
    if (this.destroyed) return;
    if (!result.ok) {
      const key = accessProblemKey(result.problem, sent.kind, 'league');
      this.stopProblem = key ? { key } : { problem: result.problem };
    }
    await this.load();
  }

  // What the page shows, without the parts that only grow in place of a redraw.
  private signature(): string {
    const l = this.league;
    return JSON.stringify([
      language(), accessSignature(), canManage('league', this.leagueId), this.problem, this.stopProblem, this.stopping, this.shown,
      l && [l.state, l.progress, l.variant, l.matches, l.seed, l.error, l.entrants, l.table.entrants, l.table.pairs, l.table.results.length, l.table.method],
    ]);
  }

  private render(): void {
    const signature = this.signature();
    if (signature === this.renderedSignature) return;
    this.renderedSignature = signature;
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
    const league = this.league;
    const header = h('div', { class: 'hns-header' },
      h('h1', { id: 'league-heading', text: t('leagues.page.heading', { id: this.leagueId }) }),
      h('a', { href: routeHash({ name: 'hnsLeagues' }), class: 'nav-link', 'data-testid': 'league-back', text: t('leagues.backToLeagues') }),
    );
    const problem = this.problem
      ? h('div', { class: 'state state-error', 'data-testid': 'league-error' }, problemMessage(this.problem).element)
      : null;
    if (!league) {
      replaceChildren(this.element, header, problem ?? h('p', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('common.loading')));
      return;
    }
    const table = league.table;
    const ranked = rankEntrants(table.entrants);
    replaceChildren(this.element,
      header,
      h('p', { class: 'muted', 'data-testid': 'league-summary', text: t('leagues.page.summary', {
        variant: league.variant || DASH,
        version: league.table.gameVersion || DASH,
        matches: league.matches ?? DASH,
        seed: league.seed || DASH,
      }) }),
      h('div', { class: 'hns-toolbar league-status', 'data-testid': 'league-status', 'data-state': league.state },
        stateBadge(league.state),
        progressBar(league.progress, league.state),
        isRunning(league) && canManage('league', this.leagueId)
          ? h('button', {
            type: 'button',
            class: 'button button-small button-danger',
            'data-testid': 'league-stop',
            'data-focus-key': 'stop',
            disabled: this.stopping,
            text: t('leagues.stop'),
            onclick: () => void this.stop(),
          })
          : null,
      ),
      league.error ? h('p', { class: 'note note-warning', role: 'status', 'data-testid': 'league-stopped-by-itself', text: t('leagues.page.error', { error: league.error }) }) : null,
      league.entrants.filter((e) => e.fallback).map((e) => h('p', { class: 'note note-warning', 'data-testid': 'league-fallback', text: t('leagues.page.fallback', { name: e.name, cause: e.fallback }) })),
      table.entrants.flatMap((e) => {
        const turns = e.promptTurns;
        if (e.fallback || !turns || turns.model + turns.fallback === 0) return [];
        const total = turns.model + turns.fallback;
        return [h('p', {
          class: turns.fallback > 0 ? 'note note-warning' : 'note',
          'data-testid': 'league-model-turns',
          text: t('leagues.page.modelTurns', { name: e.name, model: turns.model, total }),
        })];
      }),
      this.stopProblemElement(),
      problem,
      ranked.length === 0 || (table.results.length === 0 && ranked.every((e) => e.matches === 0))
        ? h('p', { class: 'state state-empty', 'data-testid': 'league-no-table', text: t('leagues.noTable') })
        : h('div', {},
          h('section', { class: 'hns-section' }, ratingTable(ranked, table.method), methodNote(table.method)),
          h('section', { class: 'hns-section' }, pairGrid(ranked, table.pairs)),
        ),
      h('section', { class: 'hns-section', 'aria-labelledby': 'league-results-heading' },
        h('h2', { id: 'league-results-heading', text: t('leagues.results.heading', { count: table.results.length }) }),
        resultsTable(table.results, this.shown, () => {
          this.shown += RESULTS_PAGE;
          this.render();
        }),
      ),
    );
    if (focused) this.element.querySelector<HTMLElement>(`[data-focus-key="${focused}"]`)?.focus();
  }

  private stopProblemElement(): HTMLElement | null {
    const p = this.stopProblem;
    if (!p) return null;
    return h('div', { class: 'state state-error', 'data-testid': 'league-stop-problem' },
      h('p', { text: t('leagues.stopFailed') }),
      'key' in p ? h('p', { class: 'problem', role: 'alert', text: t(p.key) }) : problemMessage(p.problem).element);
  }
}
