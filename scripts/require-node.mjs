// Plain JavaScript on purpose: it must run (and explain itself) on any Node, even one too old to
// strip TypeScript types. npm scripts put node_modules/.bin first on PATH, so `npm run …` uses the
// Node 24 LTS that `npm ci` installs from the `node` package.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(
    `This project needs Node.js 24 LTS or newer; this is Node.js ${process.version}.\n` +
      'Run it through npm (`npm start`, `npm test`, `npm run …`): npm ci installs Node 24 into ' +
      'node_modules/.bin, and npm scripts use it. To run a file by hand, use ./node_modules/.bin/node.',
  );
  process.exit(1);
}
