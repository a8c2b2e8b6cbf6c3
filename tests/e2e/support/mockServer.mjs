// A stand-in for hschool-server, built from the spec (protocol-v1.md, protocol-v4.md) so the
// client and the e2e tests can be exercised before the C++ server exists. Not the real thing:
// `npm run e2e` against HSCHOOL_URL is what counts.
//
//   node tests/e2e/support/mockServer.mjs --port 18081 --web-root client/dist
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { acceptWebSocket } from './websocket.mjs';

const TICK_RATE = 20;
const TICK_MS = 1000 / TICK_RATE;
const MAX_SCHOOLS = 6;
const GAME_MINUTES_PER_REAL_SECOND = 5;
const SPEEDS = [0.5, 1, 2, 3, 4];
const MAX_NAME_CHARS = 40;
const WORLD = { width: 1600, height: 900 };
const AVATAR_SPEED = 240; // world units per second
const AVATAR_RADIUS = 16;
const DEFAULT_START = '2012-04-03T06:00:00Z';

const TYPES = {
  en: { yard: 'Yard', 'main-building': 'Main building', floor: 'Floor', corridor: 'Corridor', classroom: 'Classroom', gym: 'Gym', bench: 'Bench', board: 'Board', desk: 'Desk' },
  ru: { yard: 'Двор', 'main-building': 'Главный корпус', floor: 'Этаж', corridor: 'Коридор', classroom: 'Класс', gym: 'Спортзал', bench: 'Скамейка', board: 'Доска', desk: 'Парта' },
};
const KIND_OF = { yard: 'territory', 'main-building': 'building', floor: 'floor', corridor: 'room', classroom: 'room', gym: 'room' };
const ITEMS_OF = { yard: ['bench'], classroom: ['board'], gym: [] };
const POSITIONS_OF = { classroom: ['desk'] };
const KIND_BYTE = { territory: 0, building: 1, floor: 2, room: 3 };
const DEFAULT_MAP = {
  nodes: [
    { id: 'yard', def: 'yard' },
    { id: 'main', def: 'main-building', parent: 'yard' },
    { id: 'f1', def: 'floor', parent: 'main', name: '1' },
    { id: 'c1', def: 'corridor', parent: 'f1' },
    { id: 'r101', def: 'classroom', parent: 'f1', name: '101' },
    { id: 'gym', def: 'gym', parent: 'f1' },
  ],
  links: [
    { from: 'yard', to: 'main', kind: 'entrance' },
    { from: 'main', to: 'c1', kind: 'stairs' },
    { from: 'c1', to: 'r101', kind: 'door' },
    { from: 'c1', to: 'gym', kind: 'door' },
  ],
};

const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean).map((pair) => pair.trim().split(/\s+/)));
const port = Number(args.port ?? 18081);
const webRoot = resolve(args['web-root'] ?? 'client/dist');

const schools = new Map(); // id → { id, name, gameTimeMs, running, speedIndex, map }
let nextSchoolId = 1;
let tick = 0;
const v4Connections = new Set();
const v1Connections = new Set();
let nextEntityId = 1;

// ---------- little-endian frames ----------
class Out {
  constructor() { this.bytes = []; }
  u8(v) { this.bytes.push(v & 0xff); return this; }
  u16(v) { return this.u8(v).u8(v >> 8); }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v >>> 0); this.bytes.push(...b); return this; }
  i32(v) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.bytes.push(...b); return this; }
  i64(v) { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(v)); this.bytes.push(...b); return this; }
  f32(v) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.bytes.push(...b); return this; }
  str16(s) { const b = Buffer.from(s, 'utf8'); this.u16(b.length); this.bytes.push(...b); return this; }
  done() { return Uint8Array.from(this.bytes); }
}

// ---------- REST ----------
function json(res, status, body) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' });
  res.end(text);
}
function problem(res, status, code, detail) {
  json(res, status, { type: 'about:blank', title: code, status, code, detail });
}
function summary(s) {
  return { id: s.id, name: s.name, gameTime: new Date(s.gameTimeMs).toISOString().replace('.000Z', 'Z'), running: s.running, speedIndex: s.speedIndex };
}
function catalog(lang) {
  const labels = TYPES[lang === 'en' ? 'en' : 'ru'];
  return {
    lang: lang === 'en' ? 'en' : 'ru',
    mods: ['core'],
    types: Object.keys(KIND_OF).map((id) => ({
      id,
      kind: KIND_OF[id],
      label: labels[id],
      items: (ITEMS_OF[id] ?? []).map((item) => ({ id: item, label: labels[item] })),
      positions: (POSITIONS_OF[id] ?? []).map((p) => ({ id: p, label: labels[p] })),
    })),
    defaultMap: DEFAULT_MAP,
  };
}
async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function api(req, res, url) {
  if (req.method === 'GET' && url.pathname === '/api/schools') {
    return json(res, 200, { maxSchools: MAX_SCHOOLS, defaultStartDate: DEFAULT_START, gameMinutesPerRealSecond: GAME_MINUTES_PER_REAL_SECOND, schools: [...schools.values()].map(summary) });
  }
  if (req.method === 'GET' && url.pathname === '/api/schools/random-name') {
    const en = url.searchParams.get('lang') === 'en';
    return json(res, 200, { name: en ? `Northern Academy ${nextSchoolId}` : `Лицей «Северная» ${nextSchoolId}` });
  }
  if (req.method === 'GET' && url.pathname === '/api/mods') return json(res, 200, { mods: [{ id: 'core', required: true }] });
  if (req.method === 'GET' && url.pathname === '/api/catalog') {
    const extras = (url.searchParams.get('mods') ?? '').split(',').filter(Boolean);
    if (extras.length > 0) return problem(res, 400, 'unknown-mod', `no pack '${extras[0]}' under mods/`);
    return json(res, 200, catalog(url.searchParams.get('lang')));
  }
  if (req.method === 'POST' && url.pathname === '/api/schools') {
    let body;
    try { body = JSON.parse(await readBody(req)); } catch { return problem(res, 400, 'invalid-json', 'body is not JSON'); }
    const name = typeof body.name === 'string' ? body.name : '';
    if (name.trim() === '' || [...name].length > MAX_NAME_CHARS) return problem(res, 400, 'invalid-name', `name must be 1..${MAX_NAME_CHARS} characters, got ${[...name].length}`);
    const start = Date.parse(body.startDate ?? DEFAULT_START);
    const year = new Date(start).getUTCFullYear();
    if (Number.isNaN(start) || year < 1900 || year > 2999) return problem(res, 400, 'invalid-start-date', 'start date must be within 1900–2999');
    if ((body.modIds ?? []).length > 0) return problem(res, 400, 'unknown-mod', `no pack '${body.modIds[0]}'`);
    if (body.map && !(Array.isArray(body.map.nodes) && body.map.nodes.some((n) => KIND_OF[n.def] === 'room'))) return problem(res, 400, 'invalid-map', 'the map has no rooms');
    if (schools.size >= MAX_SCHOOLS) return problem(res, 409, 'school-limit-reached', `${MAX_SCHOOLS} schools exist`);
    const school = { id: nextSchoolId++, name, gameTimeMs: start, running: true, speedIndex: 1, map: body.map ?? DEFAULT_MAP };
    schools.set(school.id, school);
    return json(res, 201, summary(school));
  }
  const remove = /^\/api\/schools\/(\d+)$/.exec(url.pathname);
  if (req.method === 'DELETE' && remove) {
    const id = Number(remove[1]);
    if (!schools.delete(id)) return problem(res, 404, 'not-found', `no school ${id}`);
    for (const conn of v4Connections) if (conn.schoolId === id) { conn.send(new Out().u8(0x84).i32(id).done()); conn.schoolId = null; }
    res.writeHead(204);
    return res.end();
  }
  return problem(res, 404, 'not-found', url.pathname);
}

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };
function serveStatic(res, url) {
  let file = normalize(join(webRoot, decodeURIComponent(url.pathname)));
  if (!file.startsWith(webRoot) || !existsSync(file) || statSync(file).isDirectory()) file = join(webRoot, 'index.html');
  if (!existsSync(file)) return problem(res, 404, 'not-found', 'no web root');
  res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname === '/health') return json(res, 200, { status: 'ok' });
  if (url.pathname.startsWith('/api/')) return void api(req, res, url).catch((e) => problem(res, 500, 'internal', String(e)));
  serveStatic(res, url);
});

// ---------- WebSocket ----------
server.on('upgrade', (req, socket) => {
  if (new URL(req.url, 'http://localhost').pathname !== '/ws/game') return socket.destroy();
  acceptWebSocket(req, socket, (conn) => {
    conn.version = null;
    conn.onmessage = (frame) => onFrame(conn, frame);
    conn.onclose = () => {
      v4Connections.delete(conn);
      v1Connections.delete(conn);
    };
  });
});

function mapSnapshot(school, locale) {
  const labels = TYPES[locale === 1 ? 'en' : 'ru'];
  const out = new Out().u8(0x85).i32(school.id).u16(school.map.nodes.length);
  for (const node of school.map.nodes) {
    out.u8(KIND_BYTE[KIND_OF[node.def]] ?? 3).str16(node.id).str16(node.parent ?? '').str16(node.name || labels[node.def] || node.def);
    const items = (ITEMS_OF[node.def] ?? []).map((i) => labels[i]);
    const positions = (POSITIONS_OF[node.def] ?? []).map((p) => `${p}-1`);
    out.u8(items.length); for (const i of items) out.str16(i);
    out.u8(positions.length); for (const p of positions) out.str16(p);
  }
  return out.done();
}
function clockFrame(s) {
  return new Out().u8(0x83).i32(s.id).i64(Math.round(s.gameTimeMs)).u8(s.running ? 1 : 0).u8(s.speedIndex).done();
}

function onFrame(conn, frame) {
  const view = Buffer.from(frame);
  if (conn.version === null) {
    if (view[0] !== 0x01 || view.length < 2) return conn.close(1007);
    conn.version = view[1];
    if (conn.version === 4) {
      conn.locale = view[2];
      conn.schoolId = null;
      v4Connections.add(conn);
      conn.send(new Out().u8(0x81).u8(4).u8(TICK_RATE).u8(MAX_SCHOOLS).done());
    } else if (conn.version === 1) {
      conn.entity = { id: nextEntityId++, kind: 1, x: 200 + Math.random() * 1200, y: 150 + Math.random() * 600, radius: AVATAR_RADIUS, colour: Math.floor(Math.random() * 0xffffff), buttons: 0, lastSequence: 0 };
      v1Connections.add(conn);
      conn.send(new Out().u8(0x81).u8(1).u32(conn.entity.id).u8(TICK_RATE).f32(WORLD.width).f32(WORLD.height).done());
    } else {
      conn.close(1002);
    }
    return;
  }
  if (conn.version === 4) {
    switch (view[0]) {
      case 0x02: return conn.send(new Out().u8(0x82).i64(view.readBigInt64LE(1)).u32(tick).done());
      case 0x03: {
        const id = view.readInt32LE(1);
        const school = schools.get(id);
        if (!school) return conn.send(new Out().u8(0x84).i32(id).done());
        conn.schoolId = id;
        return conn.send(mapSnapshot(school, conn.locale));
      }
      case 0x04: conn.schoolId = null; return;
      case 0x05: { const s = schools.get(conn.schoolId); if (s && view[1] <= 1) s.running = view[1] === 1; return; }
      case 0x06: { const s = schools.get(conn.schoolId); if (s && view[1] < SPEEDS.length) s.speedIndex = view[1]; return; }
      default: return;
    }
  }
  switch (view[0]) {
    case 0x02: {
      const sequence = view.readUInt32LE(1);
      if (sequence >= conn.entity.lastSequence) { conn.entity.lastSequence = sequence; conn.entity.buttons = view[5]; }
      return;
    }
    case 0x03: return conn.send(new Out().u8(0x83).i64(view.readBigInt64LE(1)).u32(tick).done());
    default: return;
  }
}

setInterval(() => {
  tick++;
  for (const s of schools.values()) {
    if (s.running) s.gameTimeMs += (TICK_MS / 1000) * GAME_MINUTES_PER_REAL_SECOND * 60_000 * SPEEDS[s.speedIndex];
  }
  for (const conn of v4Connections) {
    const s = conn.schoolId !== null ? schools.get(conn.schoolId) : undefined;
    if (s) conn.send(clockFrame(s));
  }
  const step = (AVATAR_SPEED * TICK_MS) / 1000;
  for (const conn of v1Connections) {
    const e = conn.entity;
    const b = e.buttons;
    e.x = Math.min(WORLD.width - e.radius, Math.max(e.radius, e.x + ((b & 8 ? 1 : 0) - (b & 4 ? 1 : 0)) * step));
    e.y = Math.min(WORLD.height - e.radius, Math.max(e.radius, e.y + ((b & 2 ? 1 : 0) - (b & 1 ? 1 : 0)) * step));
  }
  const entities = [...v1Connections].map((c) => c.entity);
  const snapshot = new Out().u8(0x82).u32(tick).u16(entities.length);
  for (const e of entities) snapshot.u32(e.id).u8(e.kind).f32(e.x).f32(e.y).f32(e.radius).u32(e.colour);
  const bytes = snapshot.done();
  for (const conn of v1Connections) conn.send(bytes);
}, TICK_MS);

server.listen(port, '127.0.0.1', () => console.log(`mock hschool-server on http://127.0.0.1:${port} serving ${webRoot}`));
