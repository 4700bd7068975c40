import type { ServerConfig } from '../config.js';

/** What the banner shows; every line but the address is optional. */
export interface BannerFacts {
  address: string;
  config: Pick<ServerConfig, 'publicUrl' | 'dataDir' | 'databaseUrl' | 'defaultProject' | 'dev'>;
  notices: Readonly<Record<string, string>>;
  startupMs: number;
}

/**
 * The readable start banner (terminal, outside production): where the API and Studio are, the one-time
 * setup address and development key when this start made them, and where the data lives.
 */
export function formatStartBanner(facts: BannerFacts, options: { color: boolean }): string {
  const bold = (text: string) => (options.color ? `\x1b[1m${text}\x1b[0m` : text);
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[0m` : text);
  const { config, notices } = facts;
  const rows: Array<[string, string]> = [
    ['API', `${facts.address}/api/v1`],
    ['Studio', `${config.publicUrl}/studio`],
    ['Data', config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `${config.dataDir} (embedded PGlite)`],
  ];
  if (notices.setupUrl) rows.push(['Setup', `${notices.setupUrl}\n${dim('  open once to create the first admin')}`]);
  if (notices.devKey) {
    rows.push([
      'Dev key',
      `${notices.devKey}\n${dim(`  every scope, every project; shown only now: export KEY=<this key>`)}`,
    ]);
  }
  if (config.dev) rows.push(['CMS_DEV', 'on: webhooks may target loopback and self-signed receivers']);
  const width = Math.max(...rows.map(([label]) => label.length));
  const body = rows
    .map(([label, value]) => {
      const [first = '', ...more] = value.split('\n');
      return [`  ${bold(label.padEnd(width))}  ${first}`, ...more.map((line) => `  ${' '.repeat(width)}${line}`)].join(
        '\n',
      );
    })
    .join('\n');
  return `\n  ${bold('CMS is running')} ${dim(`(started in ${facts.startupMs} ms)`)}\n\n${body}\n\n`;
}
