/**
 * A task over a long list of members, up to `ahead` at once, the results in the list's order: the
 * next member is read only when the oldest is done, so nothing piles up in memory, and the consumer
 * may stop at any member. A task must not fail (the domain check answers `unknown` when DNS fails).
 */
export async function* inOrder<T, R>(items: AsyncIterable<T> | Iterable<T>, ahead: number, task: (item: T) => Promise<R>): AsyncGenerator<[T, R]> {
  const running: [T, Promise<R>][] = [];
  for await (const item of items) {
    running.push([item, task(item)]);
    if (running.length < ahead) continue;
    const [oldest, result] = running.shift()!;
    yield [oldest, await result];
  }
  for (const [item, result] of running) yield [item, await result];
}
