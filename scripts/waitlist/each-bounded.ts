/**
 * Work over a long list of members with a bounded number of tasks at once: the next item is read
 * only when a task is free, so neither the list nor the tasks pile up in memory, and a store that
 * commits concurrent changes together (the JSON store) gets them in batches.
 */
export async function eachBounded<T>(items: AsyncIterable<T> | Iterable<T>, limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let running = 0;
  let failure: { error: unknown } | undefined;
  let wake = () => {};
  const oneSettles = () => new Promise<void>((done) => (wake = done));
  for await (const item of items) {
    if (failure) break;
    running += 1;
    task(item)
      .catch((error: unknown) => void (failure ??= { error }))
      .finally(() => {
        running -= 1;
        wake();
      });
    while (running >= limit) await oneSettles();
  }
  while (running > 0) await oneSettles();
  if (failure) throw failure.error;
}
