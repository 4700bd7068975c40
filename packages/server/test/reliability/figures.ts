/** Prints one line of figures for docs/reliability.md: `RELIABILITY <suite> <engine> {json}`. */
export function printFigures(suite: string, engine: string, figures: Record<string, unknown>): void {
  console.log(`RELIABILITY ${suite} ${engine} ${JSON.stringify(figures)}`);
}
