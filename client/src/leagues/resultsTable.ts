// The league's matches, each with its trios, their scores and a link to the replay view.
import { routeHash } from '../app/router';
import { t } from '../i18n/i18n';
import { h } from '../ui/dom';
import type { ResultRow } from './decode';
import { DASH, score } from './format';
import { trios, winningTrio } from './results';

export const RESULTS_PAGE = 100;

export function resultsTable(results: readonly ResultRow[], shown: number, onMore: () => void): HTMLElement {
  if (results.length === 0) return h('p', { class: 'state state-empty', 'data-testid': 'league-no-results', text: t('leagues.results.none') });
  const visible = results.slice(0, Math.max(0, shown));
  const rest = results.length - visible.length;
  return h('div', {},
    h('div', { class: 'table-scroll' },
      h('table', { class: 'hns-table league-results', 'data-testid': 'league-results' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', text: t('leagues.results.match') }),
          h('th', { scope: 'col', class: 'num', text: t('leagues.results.seed') }),
          h('th', { scope: 'col', text: t('leagues.results.trioA') }),
          h('th', { scope: 'col', text: t('leagues.results.trioB') }),
          h('th', { scope: 'col', class: 'num', text: t('leagues.results.score') }),
          h('th', { scope: 'col', text: t('leagues.results.replay') }),
        )),
        h('tbody', {}, visible.map((result) => {
          const [a, b] = trios(result);
          const won = winningTrio(result);
          return h('tr', { 'data-testid': 'league-result', 'data-result-id': result.id },
            h('th', { scope: 'row', text: result.id }),
            h('td', { class: 'num', text: result.seed || DASH }),
            h('td', { class: won === 0 ? 'league-winner' : '', text: a.names || DASH }),
            h('td', { class: won === 1 ? 'league-winner' : '', text: b.names || DASH }),
            h('td', { class: 'num', text: `${score(a.score)} : ${score(b.score)}` }),
            h('td', {}, result.replay
              ? h('a', { class: 'button button-small', href: routeHash({ name: 'hnsReplay', match: result.replay }), 'data-testid': 'league-replay-link', text: t('leagues.results.replay') })
              : h('span', { class: 'muted', text: t('leagues.results.noReplay') })),
          );
        })),
      ),
    ),
    rest > 0
      ? h('button', { type: 'button', class: 'button', 'data-testid': 'league-results-more', 'data-focus-key': 'more', text: t('leagues.results.more', { count: Math.min(rest, RESULTS_PAGE) }), onclick: onMore })
      : null,
  );
}
