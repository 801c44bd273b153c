/** "Billion laughs": a0 holds `fanout` scalars, each further anchor `fanout` aliases of the one before. */
export function laughs(levels: number, fanout: number, indent = ''): string {
  let text = `${indent}a0: &a0 [${Array(fanout).fill('lol').join(', ')}]\n`;
  for (let l = 1; l < levels; l++) text += `${indent}a${l}: &a${l} [${Array(fanout).fill(`*a${l - 1}`).join(', ')}]\n`;
  return text;
}
