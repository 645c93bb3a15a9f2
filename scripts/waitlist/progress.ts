/** A progress bar on stderr when it is a terminal; none at all in a pipe or a log. */
import cliProgress from 'cli-progress';

export function progressBar(total: number, format: string, payload: object = {}, etaBuffer?: number): cliProgress.SingleBar | undefined {
  if (!process.stderr.isTTY) return undefined;
  const bar = new cliProgress.SingleBar({ stream: process.stderr, format, hideCursor: true, etaBuffer }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, payload);
  return bar;
}
