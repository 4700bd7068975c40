/**
 * Output discipline: stdout carries data (one JSON document with `--json`), stderr carries logs,
 * warnings and progress. Colours only on a TTY and never with NO_COLOR; progress only on a TTY stderr
 * with columns, hidden with `--json`.
 */
import { stripVTControlCharacters } from 'node:util';

export interface OutputOptions {
  json: boolean;
  quiet?: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  env?: NodeJS.ProcessEnv;
  /** Off a TTY, how often a long phase prints a progress line (default 5 s). */
  progressIntervalMs?: number;
  now?: () => number;
}

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;

export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  private readonly out: NodeJS.WriteStream;
  private readonly err: NodeJS.WriteStream;
  private readonly colours: boolean;
  private readonly progressOn: boolean;
  private progressShown = false;
  private readonly progressInterval: number;
  private readonly now: () => number;
  /** Off a TTY: when each phase last printed a line. */
  private readonly lastProgress = new Map<string, number>();
  private emitted = false;

  constructor(options: OutputOptions) {
    this.json = options.json;
    this.quiet = options.quiet ?? false;
    this.out = options.stdout ?? process.stdout;
    this.err = options.stderr ?? process.stderr;
    const env = options.env ?? process.env;
    const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
    this.colours = !noColor && env.TERM !== 'dumb' && Boolean(this.err.isTTY);
    this.progressOn = !this.json && Boolean(this.err.isTTY) && (this.err.columns ?? 0) > 0;
    this.progressInterval = options.progressIntervalMs ?? 5000;
    this.now = options.now ?? Date.now;
  }

  paint(colour: Colour, text: string): string {
    return this.colours ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
  }

  /** A line of human output on stdout (ignored with --json: the result document carries the data). */
  line(text = ''): void {
    if (this.json) return;
    this.clearProgress();
    this.out.write(`${this.colours ? text : stripVTControlCharacters(text)}\n`);
  }

  /** A log line on stderr. */
  log(text: string): void {
    if (this.quiet) return;
    this.clearProgress();
    this.err.write(`${text}\n`);
  }

  warn(text: string): void {
    this.clearProgress();
    this.err.write(`${this.paint('yellow', 'warning:')} ${text}\n`);
  }

  /**
   * Progress of a long phase: a redrawn line on a TTY; elsewhere a line at its start, every few
   * seconds while it runs (a CI log shows it is alive) and at its end (not with --json).
   */
  progress(label: string, done: number, total: number): void {
    if (this.json || this.quiet) return;
    if (!this.progressOn) {
      const now = this.now();
      const last = this.lastProgress.get(label);
      if (done === 0 || done === total || last === undefined || now - last >= this.progressInterval) {
        this.err.write(`${label}: ${done}/${total}\n`);
        this.lastProgress.set(label, now);
      }
      return;
    }
    const width = Math.max(10, Math.min(30, (this.err.columns ?? 80) - label.length - 20));
    const filled = total === 0 ? width : Math.round((done / total) * width);
    this.err.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    this.progressShown = true;
    if (done === total) this.clearProgress();
  }

  private clearProgress(): void {
    if (!this.progressShown) return;
    this.err.write('\r\u001b[2K');
    this.progressShown = false;
  }

  /** The one JSON document of a --json run (written once). */
  result(document: unknown): void {
    if (!this.json || this.emitted) return;
    this.emitted = true;
    this.out.write(`${JSON.stringify(document, null, 2)}\n`);
  }

  get hasEmitted(): boolean {
    return this.emitted;
  }
}
