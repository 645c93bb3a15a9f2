/** DATABASE_URL in api/config.ts: which URLs select PostgreSQL, and a bad one names the variable, never its password. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config.ts';

describe('DATABASE_URL', () => {
  it('config: unset or empty selects the JSON store; postgres:// and postgresql:// URLs are kept as given', () => {
    expect(loadConfig({}).DATABASE_URL).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    for (const url of ['postgres://waitlist:pw@db.internal:5432/waitlist', 'postgresql://u@127.0.0.1/db?sslmode=require']) {
      expect(loadConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
  });

  for (const bad of ['mysql://u:s3cret@db/waitlist', 'postgres://', 'db.internal:5432', 'redis://u:s3cret@h:6379']) {
    it(`config: DATABASE_URL=${JSON.stringify(bad.replace('s3cret', '…'))} is a configuration error naming the variable, without the password`, () => {
      const error = (() => {
        try {
          loadConfig({ DATABASE_URL: bad });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toMatch(/DATABASE_URL=.*expected a PostgreSQL URL/);
      expect(message).not.toContain('s3cret');
    });
  }

  it('config: DATABASE_POOL_SIZE defaults to 20; a non-number or 0 names the variable', () => {
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBe(20);
    expect(loadConfig({ DATABASE_POOL_SIZE: '32' }).DATABASE_POOL_SIZE).toBe(32);
    for (const bad of ['many', '0']) expect(() => loadConfig({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE=/);
  });
});
