/**
 * C `printf("%.Nf")` for the planner's messages: the reference prints with glibc, which rounds
 * the exact binary value and breaks exact ties to even (12.25 → "12.2"), where JavaScript's
 * `toFixed` breaks them upwards ("12.3"). Messages must read as the reference's do.
 * @module
 */

/** `%.{digits}f` as glibc prints it. */
export function cFixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  if (!Number.isFinite(x)) return s;
  // The exact decimal expansion of the double decides whether this was a tie.
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const tail = exact.slice(exact.indexOf(".") + 1 + digits);
  if (!/^50*$/.test(tail)) return s;
  // A tie: toFixed rounded away from zero; glibc keeps the even neighbour.
  const last = Number(s[s.length - 1]);
  if (last % 2 === 0) return s;
  const down = (Math.abs(x) - 0.5 * Math.pow(10, -digits)).toFixed(digits);
  return (x < 0 ? "-" : "") + down;
}
