import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// No Docker engine runs here, so the compose file is checked statically: every service is there,
// every command points at code that exists, and the dependencies wait on health.
const ROOT = join(__dirname, '..', '..');
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<
    string,
    { command?: string[]; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown; build?: { args?: { APP?: string } } }
  >;
};
const APPS = ['api', 'worker-preview', 'worker-render', 'worker-dns', 'scheduler'];

describe('docker-compose.yml', () => {
  it('has postgres, redis, a one-shot migrate, the API, every worker and the scheduler', () => {
    const always = Object.keys(compose.services).filter((name) => !(compose.services[name] as { profiles?: string[] }).profiles);
    expect(always.sort()).toEqual(['api', 'migrate', 'postgres', 'redis', 'scheduler', 'spamd', 'worker-dns', 'worker-preview', 'worker-render'].sort());
  });

  it('has an optional tracing profile: Jaeger v2 with a pinned tag, and the apps take TRACING and the OTLP endpoint from the environment', () => {
    const jaeger = compose.services.jaeger as { image?: string; profiles?: string[] };
    expect(jaeger.profiles).toEqual(['tracing']);
    expect(jaeger.image).toMatch(/^jaegertracing\/jaeger:2\.\d+\.\d+$/);
    const env = (compose.services.api as { environment?: Record<string, string> }).environment ?? {};
    expect(env.TRACING).toBe('${TRACING:-}');
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-}');
  });

  it('runs every app from a source entry point that exists, built with its own APP', () => {
    for (const name of [...APPS, 'migrate']) {
      const service = compose.services[name];
      const [binary, entry] = service.command ?? [];
      expect(binary).toBe('node');
      const source = entry.replace(/^dist\//, '').replace(/\.js$/, '.ts');
      expect(existsSync(join(ROOT, source))).toBe(true);
      const app = name === 'migrate' ? 'cli' : name;
      expect(entry).toBe(`dist/apps/${app}/src/main.js`);
      expect(service.build?.args?.APP).toBe(app);
    }
    expect(compose.services.migrate.command).toEqual(['node', 'dist/apps/cli/src/main.js', 'migrate']);
  });

  it('starts apps only after healthy stores and a finished migration', () => {
    for (const name of APPS) {
      expect(compose.services[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
        // The preview worker asks spamd for SpamAssassin's verdict.
        ...(name === 'worker-preview' ? { spamd: { condition: 'service_healthy' } } : {}),
      });
    }
    const check = (service: string): string => ((compose.services[service].healthcheck as { test?: string[] } | undefined)?.test ?? []).join(' ');
    expect(check('postgres')).toMatch(/pg_isready/);
    expect(check('redis')).toMatch(/redis-cli ping/);
    expect(check('api')).toMatch(/\/health\/live/);
  });

  it("runs spamd with local rules from Debian's packages, healthy when it answers PING, and points the preview worker at it", () => {
    const spamd = compose.services.spamd as { build?: { dockerfile?: string } };
    const dockerfile = readFileSync(join(ROOT, spamd.build?.dockerfile ?? 'missing'), 'utf8');
    expect(dockerfile).toMatch(/apt-get install .*spamassassin spamc spamd/);
    expect(dockerfile).toMatch(/"--local"/);
    expect(((compose.services.spamd.healthcheck as { test?: string[] }).test ?? []).join(' ')).toBe('CMD spamc -K');
    expect((compose.services['worker-preview'] as { environment?: Record<string, string> }).environment?.SPAMASSASSIN_HOST).toBe('spamd:783');
  });

  it('runs Redis with noeviction, as BullMQ requires', () => {
    expect(readFileSync(join(ROOT, 'docker', 'redis.conf'), 'utf8')).toMatch(/^maxmemory-policy noeviction$/m);
  });

  it('keeps the queues across a Redis restart: append-only file on a volume, flushed every second', () => {
    const conf = readFileSync(join(ROOT, 'docker', 'redis.conf'), 'utf8');
    expect(conf).toMatch(/^appendonly yes$/m);
    expect(conf).toMatch(/^appendfsync everysec$/m);
    expect(conf).toMatch(/^dir \/data$/m);
    const redis = compose.services.redis as { command?: string[]; volumes?: string[] };
    expect(redis.command).toEqual(['redis-server', '/usr/local/etc/redis/redis.conf']);
    expect(redis.volumes).toContain('redis-data:/data');
  });

  it('builds the images from one multi-stage Dockerfile with ARG APP', () => {
    const dockerfile = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^ARG APP=/m);
    expect(dockerfile).toContain('dist/apps/${APP}/src/main.js');
  });
});
