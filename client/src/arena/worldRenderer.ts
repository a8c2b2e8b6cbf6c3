// Keeps one sprite per replication id: created on first sight, destroyed when the id leaves.
// Drawing is behind SpriteFactory so the bookkeeping is testable without a GPU.
import type { v1 } from '../net/protocol';

export interface EntitySprite {
  update(entity: v1.EntityState, isOwn: boolean): void;
  destroy(): void;
}

export interface SpriteFactory {
  create(entity: v1.EntityState): EntitySprite;
}

export class WorldRenderer {
  private readonly sprites = new Map<number, EntitySprite>();

  constructor(private readonly factory: SpriteFactory) {}

  get count(): number {
    return this.sprites.size;
  }

  has(id: number): boolean {
    return this.sprites.has(id);
  }

  render(entities: readonly v1.EntityState[], ownId: number | null): void {
    const seen = new Set<number>();
    for (const entity of entities) {
      seen.add(entity.id);
      let sprite = this.sprites.get(entity.id);
      if (!sprite) {
        sprite = this.factory.create(entity);
        this.sprites.set(entity.id, sprite);
      }
      sprite.update(entity, entity.id === ownId);
    }
    for (const [id, sprite] of this.sprites) {
      if (seen.has(id)) continue;
      sprite.destroy();
      this.sprites.delete(id);
    }
  }

  clear(): void {
    for (const sprite of this.sprites.values()) sprite.destroy();
    this.sprites.clear();
  }
}

// The label drawn under an entity: snapshots carry no names, so "you" or the id number.
export function entityLabel(entity: v1.EntityState, isOwn: boolean, youLabel: string): string {
  if (isOwn) return youLabel;
  return entity.kind === 1 ? `#${entity.id}` : '';
}
