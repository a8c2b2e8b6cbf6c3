// A league's progress: a native <progress> with the count beside it.
import { t } from '../i18n/i18n';
import { h } from '../ui/dom';
import { progressFraction } from './decode';
import type { LeagueState, Progress } from './decode';

export function progressBar(progress: Progress, state: LeagueState): HTMLElement {
  const label = t('leagues.progress', { played: progress.played, planned: progress.planned });
  return h('div', { class: 'league-progress', 'data-testid': 'league-progress', 'data-played': progress.played, 'data-planned': progress.planned },
    h('progress', { max: 1, value: progressFraction(progress, state), 'aria-label': label }),
    h('span', { class: 'league-progress-text', text: label }),
  );
}

export function stateBadge(state: LeagueState): HTMLElement {
  return h('span', { class: `badge league-state league-state-${state}`, 'data-testid': 'league-state', 'data-state': state, text: t(`leagues.state.${state}`) });
}
