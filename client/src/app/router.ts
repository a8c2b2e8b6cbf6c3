// Hash routes: #/ the menu, #/school/3 a school, #/arena the arena, #/hns hide-and-seek matches,
// #/hns/watch/m3, #/hns/play/m3/0 (a seat), #/hns/replay/m3 and #/hns/results/m3; leagues at
// #/hns/leagues and #/hns/leagues/l1.
export type Route =
  | { name: 'menu' }
  | { name: 'school'; id: number }
  | { name: 'arena' }
  | { name: 'hns' }
  | { name: 'hnsWatch'; match: string }
  | { name: 'hnsPlay'; match: string; slot: number; token?: string }
  | { name: 'hnsReplay'; match: string }
  | { name: 'hnsResults'; match: string }
  | { name: 'hnsLeagues' }
  | { name: 'hnsLeague'; league: string };

// Match ids are short server tokens ("m3"); anything else is not a route.
const MATCH_ID = '([A-Za-z0-9_-]{1,64})';
// League ids ("l1") are tokens of the same shape.
export const isRouteId = (id: string): boolean => new RegExp(`^${MATCH_ID}$`).test(id);

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const school = /^\/school\/(-?\d+)\/?$/.exec(path);
  if (school) return { name: 'school', id: Number(school[1]) };
  if (/^\/arena\/?$/.test(path)) return { name: 'arena' };
  if (/^\/hns\/?$/.test(path)) return { name: 'hns' };
  if (/^\/hns\/leagues\/?$/.test(path)) return { name: 'hnsLeagues' };
  const league = new RegExp(`^/hns/leagues/${MATCH_ID}/?$`).exec(path);
  if (league) return { name: 'hnsLeague', league: league[1]! };
  const play = new RegExp(`^/hns/play/${MATCH_ID}/(\\d{1,2})/?$`).exec(path);
  if (play) return { name: 'hnsPlay', match: play[1]!, slot: Number(play[2]) };
  const other = new RegExp(`^/hns/(watch|replay|results)/${MATCH_ID}/?$`).exec(path);
  if (other) {
    const match = other[2]!;
    if (other[1] === 'watch') return { name: 'hnsWatch', match };
    if (other[1] === 'replay') return { name: 'hnsReplay', match };
    return { name: 'hnsResults', match };
  }
  return { name: 'menu' };
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'menu': return '#/';
    case 'school': return `#/school/${route.id}`;
    case 'arena': return '#/arena';
    case 'hns': return '#/hns';
    case 'hnsWatch': return `#/hns/watch/${route.match}`;
    case 'hnsPlay': return `#/hns/play/${route.match}/${route.slot}`;
    case 'hnsReplay': return `#/hns/replay/${route.match}`;
    case 'hnsResults': return `#/hns/results/${route.match}`;
    case 'hnsLeagues': return '#/hns/leagues';
    case 'hnsLeague': return `#/hns/leagues/${route.league}`;
  }
}

export function navigate(route: Route): void {
  const hash = routeHash(route);
  if (window.location.hash !== hash) window.location.hash = hash;
}

// The server's /client/player, /client/global and /client/replay pages (a league runner's probes
// and links) say which view they are in <meta name="hschool-page" content="player|global|replay"
// data-match="ID">; the seat and its token come from the page's own query. The token never goes
// into the hash (routeHash drops it).
export interface PageHint {
  view: string;
  match: string;
}

export function pageRoute(hint: PageHint | null, search: string): Route | null {
  if (!hint) return null;
  const match = new RegExp(`^${MATCH_ID}$`).test(hint.match) ? hint.match : '';
  const query = new URLSearchParams(search);
  switch (hint.view) {
    case 'player': {
      const raw = query.get('slot') ?? '';
      const slot = Number(raw);
      if (!match || !/^\d{1,2}$/.test(raw) || slot > 31) return null;
      const token = query.get('token') ?? '';
      return token ? { name: 'hnsPlay', match, slot, token } : { name: 'hnsPlay', match, slot };
    }
    case 'global': return match ? { name: 'hnsWatch', match } : { name: 'hns' };
    case 'replay': return { name: 'hnsReplay', match };  // '' : the replay server's own replay
    default: return null;
  }
}

export function readPageHint(doc: Pick<Document, 'querySelector'> = document): PageHint | null {
  const meta = doc.querySelector('meta[name="hschool-page"]');
  if (!meta) return null;
  return { view: meta.getAttribute('content') ?? '', match: meta.getAttribute('data-match') ?? '' };
}
