// The pairwise results grid: a row per entrant, a column per opponent, in the table's order.
import { t } from '../i18n/i18n';
import { h } from '../ui/dom';
import type { EntrantRow, PairRow } from './decode';
import { DASH, score, scoreRange } from './format';
import { buildGrid } from './grid';
import type { GridCell } from './grid';

// Ahead, behind or level on wins, for the cell's tint.
export const cellTone = (cell: GridCell): 'ahead' | 'behind' | 'level' | 'empty' =>
  cell.matches === 0 ? 'empty' : cell.wins > cell.losses ? 'ahead' : cell.wins < cell.losses ? 'behind' : 'level';

function cell(row: string, col: string, value: GridCell | null): HTMLElement {
  if (row === col) return h('td', { class: 'league-cell league-self', 'aria-hidden': 'true' });
  if (!value || value.matches === 0) {
    const label = t('leagues.grid.none', { row, col });
    return h('td', { class: 'league-cell league-cell-empty', 'data-testid': 'league-grid-cell', 'data-row': row, 'data-col': col, title: label, 'aria-label': label, text: DASH });
  }
  const label = t('leagues.grid.cell', {
    row, col, wins: value.wins, draws: value.draws, losses: value.losses, matches: value.matches,
    margin: score(value.margin), low: score(value.low), high: score(value.high),
  });
  return h('td', {
    class: `league-cell league-cell-${cellTone(value)}`,
    'data-testid': 'league-grid-cell',
    'data-row': row,
    'data-col': col,
    title: label,
    'aria-label': label,
  },
  h('span', { class: 'league-wdl', text: `${value.wins}–${value.draws}–${value.losses}` }),
  h('br'),
  h('span', { class: 'league-margin', text: score(value.margin) }),
  h('span', { class: 'league-margin-range muted', text: ` ${scoreRange(value.low, value.high)}` }),
  );
}

export function pairGrid(ranked: readonly EntrantRow[], pairs: readonly PairRow[]): HTMLElement {
  const grid = buildGrid(ranked.map((e) => e.name), pairs);
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'hns-table league-grid', 'data-testid': 'league-grid' },
      h('caption', { text: t('leagues.grid.caption') }),
      h('thead', {}, h('tr', {},
        h('td', {}),
        grid.names.map((name) => h('th', { scope: 'col', text: name })),
      )),
      h('tbody', {}, grid.names.map((row, r) => h('tr', {},
        h('th', { scope: 'row', text: row }),
        grid.names.map((col, c) => cell(row, col, grid.cells[r]?.[c] ?? null)),
      ))),
    ),
  );
}
