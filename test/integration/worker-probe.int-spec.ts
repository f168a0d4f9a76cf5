import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// bin/worker-probe.js: the exec readiness probe of the worker containers in deploy/k8s (docs/deploy.md).
describe('worker readiness probe', () => {
  const probe = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(__dirname, '../../bin/worker-probe.js')], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });

  it('exits 0 when PostgreSQL and Redis answer', () => {
    const result = probe({});
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('exits 1 naming the store when PostgreSQL or Redis does not answer', () => {
    const noDatabase = probe({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/mailproof' });
    expect(noDatabase.status).toBe(1);
    expect(noDatabase.stderr).toMatch(/^not ready: .*ECONNREFUSED/);
    const noRedis = probe({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(noRedis.status).toBe(1);
    expect(noRedis.stderr).toMatch(/^not ready: /);
    const noClusterSeed = probe({ REDIS_CLUSTER_NODES: '127.0.0.1:1' });
    expect(noClusterSeed.status).toBe(1);
  });
});
