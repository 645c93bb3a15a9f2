/**
 * One fuzz campaign against a running stack: `runs` requests generated from `seed` (fc.sample is
 * deterministic for a seed, so request #i of a seed is always the same), sent `concurrency` at a
 * time, each answer judged by verdict.ts. Used by the e2e test and by `npm run fuzz`.
 */
import fc from 'fast-check';
import { API_PATHS, ENV_PREFIX, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from '../../api/contract/index.ts';
import { fuzzRequest, type FuzzRequest } from './requests.ts';
import { send, targetOf, type Answer } from './transport.ts';
import { outcome, violations } from './verdict.ts';

export interface CampaignOptions {
  url: string;
  seed: number;
  runs: number;
  concurrency?: number;
  /** Called after every finished request, e.g. for a progress line. */
  onAnswer?: (done: number) => void;
}

export interface Failure {
  index: number;
  request: string;
  outcome: string;
  problems: string[];
}

export interface CampaignResult {
  seed: number;
  runs: number;
  /** How many answers had each status ('closed' and 'timeout' for none). */
  counts: Record<string, number>;
  failures: Failure[];
  ms: number;
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const started = performance.now();
  const target = targetOf(options.url);
  const requests = fc.sample(fuzzRequest({ sandboxBearer: await sandboxToken(options.url) }), { seed: options.seed, numRuns: options.runs });
  const counts: Record<string, number> = {};
  const failures: Failure[] = [];
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const request = requests[index]!;
      const answer: Answer = await send(target, request);
      const key = outcome(answer);
      counts[key] = (counts[key] ?? 0) + 1;
      const problems = violations(request, answer);
      if (problems.length) failures.push({ index, request: describe(request), outcome: key, problems });
      options.onAnswer?.(++finished);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  } finally {
    target.agent.destroy();
  }
  failures.sort((a, b) => a.index - b.index);
  return { seed: options.seed, runs: options.runs, counts, failures, ms: performance.now() - started };
}

/** A valid sandbox access token, so the statistics endpoint is fuzzed past its authentication too. */
async function sandboxToken(url: string): Promise<string> {
  const res = await fetch(new URL(`${ENV_PREFIX.sandbox}${API_PATHS.token}`, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX_CLIENT_ID, client_secret: SANDBOX_CLIENT_SECRET }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no sandbox token: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A short, printable description of a request, to reproduce or read a failure. */
export function describe(req: FuzzRequest): string {
  const headers = req.headers.map(([n, v]) => `${n}: ${v.length > 60 ? `${v.slice(0, 60)}…` : v}`).join(' | ');
  const body = Buffer.from(req.body.subarray(0, 80)).toString('utf8');
  const target = req.target.length > 100 ? `${req.target.slice(0, 100)}…` : req.target;
  return `[${req.channel}${req.flaw ? ` ${req.flaw}` : ''}${req.chunked ? ' chunked' : ''}] ${req.method} ${target} {${headers}} body(${req.body.length}): ${JSON.stringify(body)}`;
}

/** Counts by status as one line, most frequent first. */
export function countsLine(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
}
