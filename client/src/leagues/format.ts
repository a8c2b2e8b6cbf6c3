// How the leagues pages write numbers: Elo to the unit, scores and margins to 0.01, signs shown
// where a difference is meant; "—" for anything missing.
export const DASH = '—';
const MINUS = '−';

const fixed = (v: number, digits: number): string => {
  const text = Math.abs(v).toFixed(digits);
  const zero = Number(text) === 0;
  return `${v < 0 && !zero ? MINUS : ''}${text}`;
};
const signed = (v: number, digits: number): string => {
  const text = fixed(v, digits);
  return v > 0 && Number(Math.abs(v).toFixed(digits)) !== 0 ? `+${text}` : text;
};

export const elo = (v: number | null): string => (v === null ? DASH : fixed(v, 0));
export const eloDiff = (v: number | null): string => (v === null ? DASH : signed(v, 0));
export const score = (v: number | null): string => (v === null ? DASH : signed(v, 2));
export const eloRange = (low: number | null, high: number | null): string => (low === null || high === null ? DASH : `${elo(low)}…${elo(high)}`);
export const diffRange = (low: number | null, high: number | null): string => (low === null || high === null ? DASH : `${eloDiff(low)}…${eloDiff(high)}`);
export const scoreRange = (low: number | null, high: number | null): string => (low === null || high === null ? DASH : `${score(low)}…${score(high)}`);
