/**
 * Texts speak of the product, not of its history: a reader of the repository cannot see the
 * issue tracker or the team's rounds of work, so code comments, help texts, docs and test names
 * say why in terms of the product or a measured fact. Every file git tracks or would track
 * (untracked but not ignored: a file about to be added counts), except the lock file and binaries,
 * is searched line by line.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/stack.ts';

/** What history talk looks like; each pattern names what it catches. */
const HISTORY: { name: string; pattern: RegExp }[] = [
  { name: 'an issue number', pattern: /\bissues?[\s\u00a0]*(?:#|no\.|number)?[\s\u00a0]*\d+/i },
  { name: 'round or issue talk', pattern: /\b(?:this|previous|last|next|earlier|prior|former) (?:round|issue)s?\b(?! trip)/i },
  { name: 'an appeal to the tracker', pattern: /\b(?:the|this|that) issue(?:'s)?\b(?!r)/i },
];

/** Generated, not written: their text is not ours to phrase. */
const SKIPPED = new Set(['package-lock.json']);

function candidateFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\0').filter((file) => file !== '' && !SKIPPED.has(path.basename(file)));
}

/** `file:line: text` for every line of `text` that talks history. */
export function historyLines(file: string, text: string): string[] {
  const found: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const hit = HISTORY.find(({ pattern }) => pattern.test(line));
    if (hit) found.push(`${file}:${index + 1}: ${hit.name}: ${line.trim().slice(0, 160)}`);
  });
  return found;
}

describe('texts speak of the product', () => {
  it('the detector catches the usual spellings of history talk, and leaves product words alone', () => {
    // Built from parts so this file does not itself hold the phrases it forbids.
    const talk = ['see issue' + ' 11', '(Issue' + ' #8, item 3)', 'the agent headers of issues' + ' 8–10', 'issue' + '\u00a09',
      'measured in the previous' + ' round', 'This' + ' round adds', 'since the last' + ' issue', 'we follow the' + " issue's wording"];
    for (const line of talk) expect(historyLines('sample.ts', line), line).toHaveLength(1);
    const product = ['RFC 8414 metadata of both issuers', 'Issue an access token', 'one durable round trip', 'the next' + ' round trip',
      'Math.round(n)', 'for (let round = 0; round < rounds; round++)', 'issued 3 tokens'];
    for (const line of product) expect(historyLines('sample.ts', line), line).toEqual([]);
  });

  it('texts speak of the product: no issue numbers or round talk in code, help texts, docs or test names', () => {
    const files = candidateFiles();
    // The repository's own code, docs and tests are all in the list (not an empty or wrong directory).
    for (const known of ['README.md', 'api/config.ts', 'test/deploy/history-free.test.ts']) expect(files).toContain(known);
    const found: string[] = [];
    for (const file of files) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path.join(ROOT, file));
      } catch {
        continue; // listed by git but deleted in the working tree: nothing to read
      }
      if (bytes.subarray(0, 8000).includes(0)) continue; // binary (images, fonts)
      found.push(...historyLines(file, bytes.toString('utf8')));
    }
    expect(found, `history talk; say why in terms of the product instead:\n${found.join('\n')}`).toEqual([]);
  });
});
