/**
 * The production clients through the token endpoint, on both engines: the registry's
 * clients authenticate with client_secret_basic and client_secret_post, a wrong secret or unknown id
 * is refused, and a client created or deleted through the registry (what `npm run clients` does)
 * counts at the next request, without a restart.
 */
import { expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import type { ClientRegistry } from '../../api/sidecar/domain/clients.ts';
import { send } from '../support/request.ts';
import { describeEachBackend } from './support/backends.ts';
import { clientRecord, harness } from './support/harness.ts';
import { formPost, plainBasic } from './support/requests.ts';

const grant = 'grant_type=client_credentials';

describeEachBackend('token: production clients', (backend) => {
  it('clients: basic and post authenticate; wrong secret and unknown id -> 401; created and deleted clients count at the next request', async () => {
    const h = await harness({}, backend);
    try {
      const registry = h.clients as ClientRegistry;
      const basic = (id: string, secret: string) => send(h.app, API_PATHS.token, formPost(grant, { authorization: plainBasic(id, secret) }));
      expect((await basic(h.client.id, h.client.secret)).status).toBe(200);
      const post = await send(h.app, API_PATHS.token, formPost({ grant_type: 'client_credentials', client_id: h.client.id, client_secret: h.client.secret }));
      expect(post.status).toBe(200);
      expect((await basic(h.client.id, 'wrong')).status).toBe(401);
      expect((await basic('nobody', h.client.secret)).status).toBe(401);

      const added = await clientRecord('Added later');
      expect((await basic(added.id, added.secret)).status).toBe(401);
      await registry.create(added.record);
      expect((await basic(added.id, added.secret)).status).toBe(200);
      expect((await registry.list()).map((c) => c.id)).toEqual([h.client.id, added.id]);
      expect(await registry.delete(h.client.id)).toBe(true);
      expect((await basic(h.client.id, h.client.secret)).status).toBe(401);
      expect((await basic(added.id, added.secret)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
