// Plain JavaScript on purpose: it must run (and explain itself) on any Node, even one too old to
// strip TypeScript types. npm scripts put node_modules/.bin first on PATH, so `npm run …` uses the
// Node 24 LTS that `npm ci` installs from the `node` package.
import { pathToFileURL } from 'node:url';

export const MINIMUM_MAJOR = 24;

/** The refusal message for a Node version that is too old, or undefined when it is fine. */
export function nodeVersionProblem(version) {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (major >= MINIMUM_MAJOR) return undefined;
  return (
    `This project needs Node.js ${MINIMUM_MAJOR} LTS or newer; this is Node.js ${version}.\n` +
    'Run it through npm (`npm start`, `npm test`, `npm run …`): npm ci installs Node 24 into ' +
    'node_modules/.bin, and npm scripts use it. To run a file by hand, use ./node_modules/.bin/node.'
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = nodeVersionProblem(process.version);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
