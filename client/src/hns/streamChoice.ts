// Which watch stream the spectator pages (/global, /replay) ask the server for: the compact stream
// (docs/hide-and-seek.md, "The compact watch stream") unless the page's query forces the contract one.
export type StreamKind = 'compact' | 'sprite';

// `?stream=sprite` in the page's query (e.g. /?stream=sprite#/hns/watch/m3) watches over the contract Sprite v1 stream, for debugging and for comparing both streams' canvases.
export const STREAM_PARAM = 'stream';

export function chooseStream(search: string): StreamKind {
  return new URLSearchParams(search).get(STREAM_PARAM) === 'sprite' ? 'sprite' : 'compact';
}

export function streamForThisPage(): StreamKind {
  return chooseStream(typeof location === 'undefined' ? '' : location.search);
}

// The socket's query for that stream: the contract stream is the one asked for by nothing.
export function streamQuery(kind: StreamKind): Record<string, string> {
  return kind === 'compact' ? { [STREAM_PARAM]: 'compact' } : {};
}
