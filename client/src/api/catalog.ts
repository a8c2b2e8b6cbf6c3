// The catalog and map JSON shapes, kept in this one module because the server side is still being
// designed: every assumption about field names lives here, with defensive parsing.
//
// Assumed catalog (GET /api/catalog?lang=..&mods=..):
//   { lang, mods: [ids], types: [{ id, kind, label, items: [{id,label}], positions: [{id,label}] }],
//     defaultMap: { nodes: [{ id, def, parent?, name? }], links: [{ from, to, kind }] } }
// The POSTed map uses the same { nodes, links } shape; empty parent/name may be omitted.
import { requestJson } from './http';
import type { ApiResult } from './http';
import type { Language } from '../i18n/i18n';

export const NODE_KINDS = ['territory', 'building', 'floor', 'room'] as const;
export type NodeKindName = (typeof NODE_KINDS)[number];

export interface LabelledId {
  id: string;
  label: string;
}

export interface CatalogType {
  id: string;
  kind: NodeKindName;
  label: string;
  items: LabelledId[];
  positions: LabelledId[];
}

export interface MapNodeDef {
  id: string;
  def: string;
  parent: string; // '' for the yard
  name: string; // '' means "use the type's label"
}

export interface MapLink {
  from: string;
  to: string;
  kind: string;
}

export interface SchoolMap {
  nodes: MapNodeDef[];
  links: MapLink[];
}

export interface Catalog {
  lang: string;
  mods: string[];
  types: CatalogType[];
  defaultMap: SchoolMap;
}

// Which kind may be placed under which: the tree is territory → building → floor → room.
export const CHILD_KIND: Record<NodeKindName, NodeKindName | null> = {
  territory: 'building',
  building: 'floor',
  floor: 'room',
  room: null,
};

// Link kinds the server's map validator knows (src/content/school_map.hpp).
export const LINK_KIND_FOR_CHILD: Record<NodeKindName, string> = {
  territory: 'entrance',
  building: 'entrance',
  floor: 'stairs',
  room: 'door',
};

export async function fetchCatalog(lang: Language, extraMods: string[]): Promise<ApiResult<Catalog>> {
  const query = new URLSearchParams({ lang });
  if (extraMods.length > 0) query.set('mods', extraMods.join(','));
  const result = await requestJson<unknown>('GET', `/api/catalog?${query.toString()}`);
  if (!result.ok) return result;
  return { ok: true, data: parseCatalog(result.data) };
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

function parseLabelled(value: unknown): LabelledId | null {
  if (typeof value === 'string') return { id: value, label: value };
  const object = asObject(value);
  const id = asString(object.id);
  return id ? { id, label: asString(object.label, id) } : null;
}

function isKind(value: unknown): value is NodeKindName {
  return (NODE_KINDS as readonly unknown[]).includes(value);
}

export function parseCatalog(raw: unknown): Catalog {
  const object = asObject(raw);
  const types: CatalogType[] = [];
  for (const entry of asArray(object.types)) {
    const type = asObject(entry);
    const id = asString(type.id);
    if (!id || !isKind(type.kind)) continue;
    types.push({
      id,
      kind: type.kind,
      label: asString(type.label, id),
      items: asArray(type.items).map(parseLabelled).filter((x): x is LabelledId => x !== null),
      positions: asArray(type.positions).map(parseLabelled).filter((x): x is LabelledId => x !== null),
    });
  }
  return {
    lang: asString(object.lang),
    mods: asArray(object.mods).filter((m): m is string => typeof m === 'string'),
    types,
    defaultMap: parseMap(object.defaultMap),
  };
}

export function parseMap(raw: unknown): SchoolMap {
  const object = asObject(raw);
  return {
    nodes: asArray(object.nodes)
      .map(asObject)
      .filter((n) => asString(n.id) !== '')
      .map((n) => ({ id: asString(n.id), def: asString(n.def), parent: asString(n.parent), name: asString(n.name) })),
    links: asArray(object.links)
      .map(asObject)
      .map((l) => ({ from: asString(l.from), to: asString(l.to), kind: asString(l.kind) }))
      .filter((l) => l.from !== '' && l.to !== ''),
  };
}

// The POST body form: empty parent and name are left out, as the server writes them.
export function mapToJson(map: SchoolMap): unknown {
  return {
    nodes: map.nodes.map((n) => ({
      id: n.id,
      def: n.def,
      ...(n.parent ? { parent: n.parent } : {}),
      ...(n.name ? { name: n.name } : {}),
    })),
    links: map.links.map((l) => ({ from: l.from, to: l.to, kind: l.kind })),
  };
}
