// The shell: header with navigation and the language switch, the notice area and the routed view.
import { followOtherTabs, loadAccessMode } from '../access/access';
import { LANGUAGES } from '../i18n/dictionary';
import { language, onLanguageChange, setLanguage, t } from '../i18n/i18n';
import type { Language, MessageKey } from '../i18n/i18n';
import { h, replaceChildren } from '../ui/dom';
import { ArenaView } from '../views/arenaView';
import { HnsLeagueView } from '../views/hnsLeagueView';
import { HnsLeaguesView } from '../views/hnsLeaguesView';
import { HnsMatchesView } from '../views/hnsMatchesView';
import { HnsPlayView } from '../views/hnsPlayView';
import { HnsReplayView } from '../views/hnsReplayView';
import { HnsResultsView } from '../views/hnsResultsView';
import { HnsWatchView } from '../views/hnsWatchView';
import { MenuView } from '../views/menuView';
import { SchoolView } from '../views/schoolView';
import { openSettingsDialog } from '../views/settingsDialog';
import type { View } from '../views/view';
import { installDebugState, updateDebug } from './debugState';
import { clearNotice, currentNotice, noteNavigation, onNotice } from './notices';
import { pageRoute, parseRoute, readPageHint } from './router';
import type { Route } from './router';

export class App {
  private view: View | null = null;
  private route: Route = { name: 'menu' };
  private readonly header = h('header', { class: 'app-header' });
  private readonly noticeArea = h('div', { class: 'notice-area', role: 'status', 'aria-live': 'polite' });
  private readonly main = h('main', { id: 'main', class: 'app-main', tabindex: '-1' });

  constructor(private readonly root: HTMLElement) {}

  start(): void {
    installDebugState(window);
    followOtherTabs(window);
    void loadAccessMode(); // views offer Stop/Delete once the mode is known
    document.documentElement.lang = language();
    replaceChildren(
      this.root,
      h('a', { class: 'skip-link', href: '#main', onclick: (e: Event) => { e.preventDefault(); this.main.focus(); } }),
      this.header,
      this.noticeArea,
      this.main,
    );
    onLanguageChange(() => this.renderChrome());
    onNotice(() => this.renderNotice());
    window.addEventListener('hashchange', () => this.mountRoute());
    this.renderChrome();
    // A /client/... page of the server opens its own view until the user navigates by hash.
    const page = window.location.hash ? null : pageRoute(readPageHint(), window.location.search);
    this.mountRoute(page ?? undefined);
  }

  private mountRoute(initial?: Route): void {
    const next = initial ?? parseRoute(window.location.hash);
    this.route = next;
    this.view?.destroy();
    noteNavigation();
    this.view = createView(next);
    replaceChildren(this.main, this.view.element);
    this.renderChrome();
  }

  private renderChrome(): void {
    const skip = this.root.querySelector('.skip-link');
    if (skip) skip.textContent = t('app.skipToContent');
    document.title = t('app.title');
    updateDebug({ language: language() });
    const navLink = (hash: string, key: MessageKey, active: boolean, testId: string) =>
      h('a', { href: hash, class: active ? 'nav-link active' : 'nav-link', 'aria-current': active ? 'page' : undefined, 'data-testid': testId, text: t(key) });
    replaceChildren(
      this.header,
      h('a', { href: '#/', class: 'brand', text: t('app.title') }),
      h('nav', { 'aria-label': t('app.title') },
        navLink('#/', 'nav.schools', this.route.name === 'menu' || this.route.name === 'school', 'nav-schools'),
        navLink('#/arena', 'nav.arena', this.route.name === 'arena', 'nav-arena'),
        navLink('#/hns', 'nav.hns', this.route.name.startsWith('hns'), 'nav-hns'),
      ),
      h('div', { class: 'lang-switch', role: 'group', 'aria-label': t('lang.label') },
        LANGUAGES.map((lang: Language) => h('button', {
          type: 'button',
          class: 'button button-small',
          lang,
          'data-testid': `lang-${lang}`,
          'aria-pressed': language() === lang ? 'true' : 'false',
          text: t(`lang.${lang}` as MessageKey),
          onclick: () => setLanguage(lang),
        })),
      ),
      h('button', {
        type: 'button',
        class: 'button button-small',
        'data-testid': 'open-settings',
        'aria-haspopup': 'dialog',
        text: t('settings.open'),
        onclick: () => openSettingsDialog(),
      }),
    );
    this.renderNotice();
  }

  private renderNotice(): void {
    const notice = currentNotice();
    if (!notice) {
      replaceChildren(this.noticeArea);
      return;
    }
    replaceChildren(this.noticeArea,
      h('div', { class: `notice notice-${notice.tone}`, 'data-testid': 'notice' },
        h('span', { text: t(notice.key, notice.params) }),
        h('button', { type: 'button', class: 'icon-button', 'aria-label': t('common.close'), text: '×', onclick: () => clearNotice() }),
      ),
    );
  }
}

function createView(route: Route): View {
  switch (route.name) {
    case 'menu': return new MenuView();
    case 'school': return new SchoolView(route.id);
    case 'arena': return new ArenaView();
    case 'hns': return new HnsMatchesView();
    case 'hnsWatch': return new HnsWatchView(route.match);
    case 'hnsPlay': return new HnsPlayView(route.match, route.slot, route.token);
    case 'hnsReplay': return new HnsReplayView(route.match);
    case 'hnsResults': return new HnsResultsView(route.match);
    case 'hnsLeagues': return new HnsLeaguesView();
    case 'hnsLeague': return new HnsLeagueView(route.league);
  }
}
