// The own avatar's step, bit for bit as the server's (src/sim/arena/systems.cpp): every f32
// operation is rounded with Math.fround (binary64 then f32 is exact for + − × ÷ √), in the same
// order; obstacles in id order. A change on either side is a protocol change (v5_prediction.json).
const f = Math.fround;

export const DIAGONAL_SCALE = f(0.70710678118654752);
const UP = 1;
const DOWN = 2;
const LEFT = 4;
const RIGHT = 8;

export interface AvatarRules {
  width: number;
  height: number;
  playerSpeed: number;
  playerRadius: number;
  tickRate: number;
}

export interface Circle {
  x: number;
  y: number;
  radius: number;
}

export interface Point {
  x: number;
  y: number;
}

const axis = (mask: number, negative: number, positive: number) => (mask & positive ? 1 : 0) - (mask & negative ? 1 : 0);

// std::clamp(v, lo, hi): lo when v < lo, hi when hi < v, else v.
const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : hi < v ? hi : v);

// One fixed step of the avatar at `from` with `mask` held.
export function stepAvatar(from: Point, mask: number, rules: AvatarRules, obstacles: readonly Circle[]): Point {
  const speed = f(rules.playerSpeed);
  const dt = f(1 / rules.tickRate);
  const ax = axis(mask, LEFT, RIGHT);
  const ay = axis(mask, UP, DOWN);
  const scale = ax !== 0 && ay !== 0 ? f(speed * DIAGONAL_SCALE) : speed;
  const vx = f(ax * scale);
  const vy = f(ay * scale);
  let x = f(f(from.x) + f(vx * dt));
  let y = f(f(from.y) + f(vy * dt));
  const radius = f(rules.playerRadius);
  for (const o of obstacles) {
    const reach = f(radius + f(o.radius));
    const dx = f(x - f(o.x));
    const dy = f(y - f(o.y));
    const distanceSquared = f(f(dx * dx) + f(dy * dy));
    if (distanceSquared >= f(reach * reach)) continue;
    const distance = f(Math.sqrt(distanceSquared));
    if (distance === 0) {
      x = f(f(o.x) + reach); // dead centre: +x, as the server does
      continue;
    }
    x = f(f(o.x) + f(f(dx / distance) * reach));
    y = f(f(o.y) + f(f(dy / distance) * reach));
  }
  x = clamp(x, radius, f(f(rules.width) - radius));
  y = clamp(y, radius, f(f(rules.height) - radius));
  return { x, y };
}
