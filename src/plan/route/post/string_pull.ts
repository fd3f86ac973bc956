/**
 * StringPull (spec 后处理 › 拉直): from anchor i, scan j back from the last point down to i + 2
 * and keep the first visible j; when none is visible take j = i + 1 without a check; jump to j and
 * repeat. One pass is stable: a second pass over the output changes nothing.
 * @module
 */

/** The indices of the pulled points (always the first and the last). */
export function stringPull(n: number, visible: (i: number, j: number) => boolean): number[] {
  if (n <= 0) return [];
  const out = [0];
  let i = 0;
  while (i < n - 1) {
    let j = i + 1;
    for (let k = n - 1; k >= i + 2; k--) {
      if (visible(i, k)) {
        j = k;
        break;
      }
    }
    out.push(j);
    i = j;
  }
  return out;
}
