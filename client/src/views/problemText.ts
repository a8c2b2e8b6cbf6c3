// A problem as the user sees it: the localized message, plus the server's own detail if any.
import { describeProblem } from '../api/problems';
import type { Problem, ProblemField } from '../api/problems';
import { t } from '../i18n/i18n';
import { h } from '../ui/dom';

export function problemMessage(problem: Problem): { field: ProblemField; element: HTMLElement } {
  const { key, field } = describeProblem(problem);
  const element = h(
    'div',
    { class: 'problem', role: 'alert', 'data-testid': `problem-${problem.code}`, 'data-code': problem.code },
    h('p', { class: 'problem-message', text: t(key, { status: problem.status }) }),
    problem.detail ? h('p', { class: 'problem-detail', text: t('common.serverSays', { detail: problem.detail }) }) : null,
    problem.retryAfter !== undefined ? h('p', { class: 'problem-retry', 'data-testid': 'problem-retry', text: t('problem.retryAfter', { seconds: problem.retryAfter }) }) : null,
  );
  return { field, element };
}
