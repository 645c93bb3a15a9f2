/** A progress bar on stderr when it is a terminal; nothing at all in a pipe or a log. */
import cliProgress from 'cli-progress';

export function progressBar(total: number, label: string) {
  if (!process.stderr.isTTY) return { tick: (_count?: number) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: ` ${label} {bar} {value}/{total} | {eta_formatted} left`, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { tick: (count = 1) => bar.increment(count), stop: () => bar.stop() };
}
