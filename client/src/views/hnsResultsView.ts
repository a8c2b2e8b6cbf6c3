// One match's results: the summary, the per-seat and per-game tables, and links to its replay.
import { updateDebug } from '../app/debugState';
import type { Problem } from '../api/problems';
import { getMatch, replayFileUrl } from '../hns/api';
import type { MatchDetail } from '../hns/api';
import { resetHnsDebug } from '../hns/debug';
import { formatFinishedAt, stageKey } from '../hns/format';
import { matchHeader, resultsTables, seatChip } from '../hns/ui';
import { language, onLanguageChange, t } from '../i18n/i18n';
import { h, replaceChildren } from '../ui/dom';
import { problemMessage } from './problemText';
import type { View } from './view';

const RESULTS_POLL_MS = 3000;

export class HnsResultsView implements View {
  readonly element = h('section', { class: 'view hns-view', 'aria-labelledby': 'hns-results-heading', 'data-testid': 'hns-results-view' });
  private match: MatchDetail | null = null;
  private problem: Problem | null = null;
  private readonly unsubscribe: () => void;
  private readonly timer: ReturnType<typeof setInterval>;
  private destroyed = false;

  constructor(private readonly matchId: string) {
    resetHnsDebug('results', matchId);
    updateDebug({ view: 'hns-results', school: null, arena: null });
    this.unsubscribe = onLanguageChange(() => this.render());
    this.render();
    void this.load();
    // A running match has no results yet: look again until it has.
    this.timer = setInterval(() => {
      if (!this.match?.results) void this.load();
    }, RESULTS_POLL_MS);
  }

  destroy(): void {
    this.destroyed = true;
    clearInterval(this.timer);
    this.unsubscribe();
  }

  private async load(): Promise<void> {
    const result = await getMatch(this.matchId);
    if (this.destroyed) return;
    if (result.ok) {
      this.match = result.data;
      this.problem = null;
    } else {
      this.problem = result.problem;
    }
    this.render();
  }

  private render(): void {
    const match = this.match;
    const header = matchHeader('hns-results-heading', t('hns.resultsHeading', { id: this.matchId }));
    if (!match) {
      replaceChildren(this.element, header, this.problem
        ? h('div', { class: 'state state-error' }, problemMessage(this.problem).element)
        : h('p', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('common.loading')));
      return;
    }
    replaceChildren(this.element,
      header,
      h('p', {}, `${match.variant} · ${t('hns.gameVersion', { version: match.gameVersion })} · ${t(stageKey(match))} · ${t('hns.col.tick')}: ${match.tick}`,
        match.finishedAt !== null ? ` · ${formatFinishedAt(match.finishedAt, language())}` : ''),
      h('ul', { class: 'seat-list' }, match.seats.map(seatChip)),
      h('div', { class: 'hns-toolbar' },
        match.phase === 'finished'
          ? h('a', { class: 'button button-primary', href: `#/hns/replay/${match.id}`, 'data-testid': 'hns-replay-link', text: t('hns.replay') })
          : h('a', { class: 'button button-primary', href: `#/hns/watch/${match.id}`, text: t('hns.watch') }),
        match.phase === 'finished' ? h('a', { class: 'button', href: replayFileUrl(match.id), download: `${match.id}.cowldhns`, text: t('hns.download') }) : null,
      ),
      match.results ? resultsTables(match.results) : h('p', { class: 'state state-empty', 'data-testid': 'hns-no-results', text: t('hns.noResults') }),
    );
  }
}
