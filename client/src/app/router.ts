// Hash routes: #/ the menu, #/school/3 a school, #/arena the arena.
export type Route = { name: 'menu' } | { name: 'school'; id: number } | { name: 'arena' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const school = /^\/school\/(-?\d+)\/?$/.exec(path);
  if (school) return { name: 'school', id: Number(school[1]) };
  if (/^\/arena\/?$/.test(path)) return { name: 'arena' };
  return { name: 'menu' };
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'menu': return '#/';
    case 'school': return `#/school/${route.id}`;
    case 'arena': return '#/arena';
  }
}

export function navigate(route: Route): void {
  const hash = routeHash(route);
  if (window.location.hash !== hash) window.location.hash = hash;
}
