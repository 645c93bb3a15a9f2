/**
 * Operator command for the production OAuth clients (`npm run clients -- --help`; docs/operator.md,
 * "OAuth clients"), on whichever engine the configuration selects (store/open-backend.ts). A secret
 * is printed once, at creation, and stored only as a salted scrypt hash.
 */
import { configOrExit } from '../api/config.ts';
import { SCOPES, TOKEN_TTL_SECONDS } from '../api/contract/index.ts';
import { hashSecret, newClientId, newClientSecret, type ClientRegistry } from '../api/sidecar/domain/clients.ts';
import { openClientRegistry } from '../api/sidecar/store/open-backend.ts';
import { EXIT, main, printJson, type Program } from './cli.ts';

async function withClients<T>(use: (clients: ClientRegistry) => Promise<T>): Promise<T> {
  const opened = await openClientRegistry(configOrExit());
  try {
    return await use(opened.clients);
  } finally {
    await opened.close();
  }
}

const TOKENS_LIVE = `tokens already issued stay valid until they expire (at most ${TOKEN_TTL_SECONDS / 60} minutes)`;

const program: Program = {
  name: 'npm run clients --',
  summary: 'The production OAuth clients (client credentials for the statistics API).',
  footer: [
    'Every command takes --help. A name with spaces goes in quotes: create "Partner dashboard"',
    'Exit codes: 0 done, 1 error, 2 usage, 3 no client with that id.',
    'Engine: PostgreSQL when DATABASE_URL is set, else DATA_DIR/clients.json.',
  ].join('\n'),
  commands: {
    create: {
      synopsis: 'create [--json] NAME',
      help: [
        'Creates a client with every scope and prints its id and secret. The secret is shown only this once.',
        '  --json   {"client_id", "client_secret", "name", "createdAt", "scopes"} on one line',
      ].join('\n'),
      options: { json: { type: 'boolean' } },
      args: ['NAME'],
      async run({ values, positionals: [typed] }) {
        const name = typed.trim();
        const secret = newClientSecret();
        const record = { id: newClientId(), name, createdAt: new Date().toISOString(), scopes: [...SCOPES], secretHash: await hashSecret(secret) };
        await withClients((clients) => clients.create(record));
        if (values.json) {
          printJson({ client_id: record.id, client_secret: secret, name, createdAt: record.createdAt, scopes: record.scopes });
          return EXIT.ok;
        }
        console.log(`Created client ${JSON.stringify(name)}.`);
        console.log(`client_id: ${record.id}`);
        console.log(`client_secret: ${secret}`);
        console.log('The secret is shown only this once and cannot be recovered: store it now.');
        return EXIT.ok;
      },
    },
    list: {
      synopsis: 'list [--json]',
      help: 'Every production client: id, creation time, name (never secrets).\n  --json   an array of {id, name, createdAt, scopes}',
      options: { json: { type: 'boolean' } },
      async run({ values }) {
        const clients = await withClients((registry) => registry.list());
        // Never the secret hash.
        if (values.json) printJson(clients.map(({ id, name, createdAt, scopes }) => ({ id, name, createdAt, scopes })));
        else if (clients.length === 0) console.log('No production clients. Create one with: npm run clients -- create NAME');
        else for (const client of clients) console.log(`${client.id}\t${client.createdAt}\t${client.name}`);
        return EXIT.ok;
      },
    },
    delete: {
      synopsis: 'delete ID',
      help: `Deletes a client. Every instance refuses it from its next token request; ${TOKENS_LIVE}.\nAn id that begins with "-" goes after --, as in: delete -- -x1…`,
      args: ['ID'],
      async run({ positionals: [id] }) {
        if (!(await withClients((clients) => clients.delete(id)))) {
          console.error(`No client with id ${JSON.stringify(id)}. See npm run clients -- list`);
          return EXIT.notFound;
        }
        console.log(`Deleted client ${id}; ${TOKENS_LIVE}.`);
        return EXIT.ok;
      },
    },
  },
};

main(program, 'clients');
