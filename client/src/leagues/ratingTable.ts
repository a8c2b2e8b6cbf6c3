// The league table, best rating first: each rating's 95 % interval as a bar on one axis shared by
// every row (a mark at the rating, dashed while provisional), the record, mean score and value over
// replacement.
import { t } from '../i18n/i18n';
import { h } from '../ui/dom';
import { axisPercent, intervalBar, ratingAxis } from './axis';
import type { Axis } from './axis';
import type { EntrantRow, Method } from './decode';
import { DASH, diffRange, elo, eloDiff, eloRange, score } from './format';

function axisScale(axis: Axis): HTMLElement {
  return h('div', { class: 'league-axis', 'aria-hidden': 'true', 'data-testid': 'league-axis' },
    axis.ticks.map((tick) => h('span', { class: 'league-axis-tick', style: `left: ${axisPercent(axis, tick)}%`, text: elo(tick) })));
}

export function intervalCell(axis: Axis, entrant: EntrantRow): HTMLElement {
  const bar = intervalBar(axis, entrant);
  const label = t('leagues.table.bar', { rating: elo(entrant.rating), low: elo(entrant.low), high: elo(entrant.high) });
  const track = h('div', { class: 'league-track', role: 'img', 'aria-label': label, title: label },
    axis.ticks.map((tick) => h('span', { class: 'league-gridline', style: `left: ${axisPercent(axis, tick)}%` })),
    bar ? h('span', {
      class: `league-bar${entrant.provisional ? ' league-bar-provisional' : ''}`,
      'data-testid': 'league-bar',
      'data-left': bar.left,
      'data-width': bar.width,
      style: `left: ${bar.left}%; width: ${bar.width}%`,
    }) : null,
    bar && bar.mark !== null ? h('span', { class: 'league-mark', 'data-testid': 'league-mark', style: `left: ${bar.mark}%` }) : null,
  );
  return h('td', { class: 'league-interval' }, track, h('span', { class: 'league-range muted', text: eloRange(entrant.low, entrant.high) }));
}

function vorCell(entrant: EntrantRow): HTMLElement {
  const vor = entrant.vor;
  if (!vor) return h('td', { class: 'num muted', title: t('leagues.table.vorNone'), text: DASH });
  return h('td', { class: 'num', title: t('leagues.table.vorHint') },
    t('leagues.table.vorValue', { value: eloDiff(vor.value), baseline: vor.baseline || DASH }),
    h('br'),
    h('span', { class: 'muted', text: diffRange(vor.low, vor.high) }));
}

export function ratingTable(ranked: readonly EntrantRow[], method: Method | null): HTMLElement {
  const axis = ratingAxis(ranked);
  const width = method?.provisionalWidth ?? 200;
  const num = (text: string) => h('td', { class: 'num', text });
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'hns-table league-table', 'data-testid': 'league-table' },
      h('caption', { text: t('leagues.table.caption') }),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('leagues.table.rank') }),
        h('th', { scope: 'col', text: t('leagues.table.entrant') }),
        h('th', { scope: 'col', class: 'num', text: t('leagues.table.rating') }),
        h('th', { scope: 'col', class: 'league-interval' }, t('leagues.table.interval'), axisScale(axis)),
        h('th', { scope: 'col', class: 'num', text: t('leagues.table.matches') }),
        h('th', { scope: 'col', class: 'num', text: t('leagues.table.wins') }),
        h('th', { scope: 'col', class: 'num', text: t('leagues.table.draws') }),
        h('th', { scope: 'col', class: 'num', text: t('leagues.table.losses') }),
        h('th', { scope: 'col', class: 'num', text: t('leagues.table.meanScore') }),
        h('th', { scope: 'col', class: 'num', title: t('leagues.table.vorHint'), text: t('leagues.table.vor') }),
      )),
      h('tbody', {}, ranked.map((entrant, index) => h('tr', { 'data-testid': 'league-entrant', 'data-name': entrant.name, 'data-provisional': entrant.provisional ? 'true' : 'false' },
        h('td', { class: 'num', text: String(index + 1) }),
        h('th', { scope: 'row' },
          entrant.name,
          h('br'),
          h('span', { class: 'muted', text: entrant.kind || DASH }),
          entrant.provisional
            ? h('span', { class: 'badge league-provisional', title: t('leagues.table.provisionalHint', { width: elo(width) }), text: t('leagues.table.provisional') })
            : null),
        h('td', { class: 'num league-rating', text: elo(entrant.rating) }),
        intervalCell(axis, entrant),
        num(String(entrant.matches)),
        num(String(entrant.wins)),
        num(String(entrant.draws)),
        num(String(entrant.losses)),
        num(score(entrant.meanScore)),
        vorCell(entrant),
      ))),
    ),
  );
}

export function methodNote(method: Method | null): HTMLElement | null {
  if (!method || method.name === '') return null;
  return h('p', { class: 'hint', 'data-testid': 'league-method', text: t('leagues.table.method', {
    name: method.name,
    sigma: method.noiseSigma === null ? DASH : method.noiseSigma.toFixed(3),
  }) });
}
