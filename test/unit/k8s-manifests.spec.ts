import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { ConfigValidationError, SECRET_SETTINGS, validateEnvironment } from '@mailproof/config';
import { renderKustomization, strategicMerge, type K8sObject } from '../utils/kustomize';

// deploy/k8s validated without a cluster (docs/deploy.md, "Validation"): both overlays rendered by the
// Kustomize subset in test/utils/kustomize.ts, every object checked against the vendored Kubernetes 1.32 and
// KEDA schemas (deploy/k8s/schemas), then the policy rules below.
const root = join(__dirname, '../../deploy/k8s');
const schemas = join(root, 'schemas');
const OVERLAYS = ['small', 'production'] as const;
const rendered = Object.fromEntries(OVERLAYS.map((name) => [name, renderKustomization(join(root, 'overlays', name))])) as Record<
  (typeof OVERLAYS)[number],
  K8sObject[]
>;

type Plain = Record<string, unknown>;
interface Container {
  name: string;
  image: string;
  env?: Array<{ name: string }>;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  livenessProbe?: Plain;
  readinessProbe?: Plain;
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean };
  terminationGracePeriodSeconds?: number;
  topologySpreadConstraints?: unknown[];
  volumes?: Array<{ name: string; emptyDir?: Plain }>;
}
const podSpec = (object: K8sObject) => ((object.spec as Plain).template as { spec: PodSpec }).spec;
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind);
const workloads = (objects: K8sObject[]) => objects.filter((object) => object.kind === 'Deployment' || object.kind === 'Job');

function validators(): (object: K8sObject) => ValidateFunction {
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  const kubernetes = JSON.parse(readFileSync(join(schemas, 'kubernetes-1.32.json'), 'utf8')) as { kinds: Record<string, string> };
  ajv.addSchema(kubernetes);
  const byKind = new Map<string, ValidateFunction>();
  for (const [kind, definition] of Object.entries(kubernetes.kinds)) byKind.set(kind, ajv.compile({ $ref: `kubernetes-1.32.json#/definitions/${definition}` }));
  for (const [kind, file] of [
    ['keda.sh/v1alpha1/ScaledObject', 'keda-scaledobject-v1alpha1.json'],
    ['keda.sh/v1alpha1/TriggerAuthentication', 'keda-triggerauthentication-v1alpha1.json'],
  ]) {
    byKind.set(kind, ajv.compile(JSON.parse(readFileSync(join(schemas, file), 'utf8'))));
  }
  return (object) => {
    const validate = byKind.get(`${object.apiVersion}/${object.kind}`);
    if (!validate) throw new Error(`no vendored schema for ${object.apiVersion}/${object.kind}`);
    return validate;
  };
}

describe('the Kustomize subset renderer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
  mkdirSync(join(dir, 'base'));
  mkdirSync(join(dir, 'overlay'));
  const write = (path: string, text: string) => writeFileSync(join(dir, path), text);
  write('base/kustomization.yaml', 'resources: [app.yaml]\nlabels:\n  - pairs: { team: mail }\n    includeTemplates: true\n');
  write(
    'base/app.yaml',
    [
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: a }\nspec:\n  replicas: 1\n  template:\n    metadata: { labels: { app: a } }\n    spec:\n      containers:',
      '        - { name: main, image: "example/a:1.0", args: [x] }\n        - { name: side, image: example/b }',
      '---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\ndata: { K: v }\n',
    ].join('\n'),
  );
  write(
    'overlay/kustomization.yaml',
    'namespace: ns\nresources: [../base]\npatches:\n  - path: p.yaml\n    target: { kind: Deployment }\nimages:\n  - { name: example/a, newName: reg/a, newTag: "2.0" }\n',
  );
  write(
    'overlay/p.yaml',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ignored }\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - { name: main, args: [y] }\n',
  );

  it('applies resources, labels, patches with a target, images and the namespace as kubectl kustomize would', () => {
    const [deployment, configMap] = renderKustomization(join(dir, 'overlay'));
    expect(deployment.metadata).toEqual({ name: 'a', namespace: 'ns', labels: { team: 'mail' } });
    expect(deployment.spec).toEqual({
      replicas: 3,
      template: {
        metadata: { labels: { app: 'a', team: 'mail' } },
        spec: {
          containers: [
            { name: 'main', image: 'reg/a:2.0', args: ['y'] },
            { name: 'side', image: 'example/b' },
          ],
        },
      },
    });
    expect(configMap).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', labels: { team: 'mail' } }, data: { K: 'v' } });
  });

  it('refuses what it does not implement, and a patch that matches nothing', () => {
    write('overlay/kustomization.yaml', 'resources: [../base]\ncommonAnnotations: { a: b }\n');
    expect(() => renderKustomization(join(dir, 'overlay'))).toThrow(/commonAnnotations not supported/);
    write('overlay/kustomization.yaml', 'resources: [../base]\npatches:\n  - path: p.yaml\n    target: { kind: StatefulSet }\n');
    expect(() => renderKustomization(join(dir, 'overlay'))).toThrow(/matches no object/);
  });

  it('merges lists of named maps by name and replaces other lists; null deletes', () => {
    expect(strategicMerge({ a: [{ name: 'x', v: 1 }], b: [1, 2], c: 1 }, { a: [{ name: 'y' }], b: [3], c: null })).toEqual({
      a: [{ name: 'x', v: 1 }, { name: 'y' }],
      b: [3],
    });
  });
});

describe.each(OVERLAYS)('deploy/k8s/overlays/%s', (overlay) => {
  const objects = rendered[overlay];
  const deployments = ofKind(objects, 'Deployment');

  it('has a Deployment per app, the migrate Job, the API Service and Ingress, the ConfigMap and Secret', () => {
    expect(deployments.map((object) => object.metadata.name).sort()).toEqual(
      ['api', 'scheduler', 'worker-dns', 'worker-preview', 'worker-render'].map((app) => `mailproof-${app}`),
    );
    for (const [kind, name] of [
      ['Job', 'mailproof-migrate'],
      ['Service', 'mailproof-api'],
      ['Ingress', 'mailproof-api'],
      ['ConfigMap', 'mailproof-config'],
      ['Secret', 'mailproof-secrets'],
    ]) {
      expect(objects.filter((object) => object.kind === kind && object.metadata.name === name)).toHaveLength(1);
    }
    expect(new Set(objects.map((object) => object.metadata.namespace))).toEqual(new Set(['mailproof']));
  });

  it('validates against the vendored Kubernetes 1.32 and KEDA schemas: 0 violations', () => {
    const validatorOf = validators();
    const violations = objects.flatMap((object) => {
      const validate = validatorOf(object);
      return validate(object as unknown)
        ? []
        : (validate.errors ?? []).map((error) => `${object.kind}/${object.metadata.name}${error.instancePath}: ${error.message}`);
    });
    expect(violations).toEqual([]);
    // The schemas are strict: a misspelled field or a wrong type is a violation, not a pass.
    const [deployment] = ofKind(objects, 'Deployment');
    const typo = structuredClone(deployment);
    (typo.spec as Plain).replica = 2;
    expect(validatorOf(typo)(typo)).toBe(false);
    const [scaled] = ofKind(rendered.production, 'ScaledObject');
    const wrong = structuredClone(scaled);
    (wrong.spec as Plain).minReplicaCount = 'two';
    expect(validatorOf(wrong)(wrong)).toBe(false);
  });

  it('gives every container requests and limits, probes (Deployments), a non-root user and a read-only root with a writable /tmp', () => {
    for (const workload of workloads(objects)) {
      const pod = podSpec(workload);
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      for (const container of pod.containers) {
        const where = `${workload.kind}/${workload.metadata.name}/${container.name}`;
        for (const measure of ['cpu', 'memory']) {
          expect([where, measure, container.resources?.requests?.[measure]]).not.toContain(undefined);
          expect([where, measure, container.resources?.limits?.[measure]]).not.toContain(undefined);
        }
        expect([where, container.securityContext?.readOnlyRootFilesystem, container.securityContext?.allowPrivilegeEscalation]).toEqual([where, true, false]);
        const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
        expect([where, pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir]).toEqual([where, expect.any(Object)]);
        if (workload.kind === 'Deployment') {
          expect([where, container.livenessProbe, container.readinessProbe]).toEqual([where, expect.any(Object), expect.any(Object)]);
        }
      }
    }
  });

  it('probes the API on /health/live and /health/ready, the workers with bin/worker-probe.js', () => {
    for (const deployment of deployments) {
      const [container] = podSpec(deployment).containers;
      if (deployment.metadata.name === 'mailproof-api') {
        expect(container.livenessProbe).toMatchObject({ httpGet: { path: '/health/live' } });
        expect(container.readinessProbe).toMatchObject({ httpGet: { path: '/health/ready' } });
      } else {
        expect(container.readinessProbe).toMatchObject({ exec: { command: ['node', 'bin/worker-probe.js'] } });
      }
    }
  });

  it('pins every image to a release: no `latest`, no tag-less image', () => {
    for (const workload of workloads(objects)) {
      for (const { image } of podSpec(workload).containers) expect(image).toMatch(/^[^:@]+(:(?!latest$)[\w][\w.-]*|@sha256:[0-9a-f]{64})$/);
    }
  });

  it('gives every pod a grace period above SHUTDOWN_GRACE_MS, and Deployments a topology spread', () => {
    const config = ofKind(objects, 'ConfigMap').find((object) => object.metadata.name === 'mailproof-config')!.data as Record<string, string>;
    const shutdownGraceSeconds = Number(config.SHUTDOWN_GRACE_MS) / 1000;
    expect(shutdownGraceSeconds).toBeGreaterThan(0);
    for (const deployment of deployments) {
      const pod = podSpec(deployment);
      expect([deployment.metadata.name, (pod.terminationGracePeriodSeconds ?? 30) > shutdownGraceSeconds]).toEqual([deployment.metadata.name, true]);
      expect([deployment.metadata.name, pod.topologySpreadConstraints?.length ?? 0]).not.toEqual([deployment.metadata.name, 0]);
    }
  });

  it('has a PodDisruptionBudget for every Deployment that runs more than one replica (or is autoscaled above one)', () => {
    const selectors = ofKind(objects, 'PodDisruptionBudget').map((pdb) => JSON.stringify(((pdb.spec as Plain).selector as Plain).matchLabels));
    const scaledAboveOne = new Set(
      [...ofKind(objects, 'ScaledObject'), ...ofKind(objects, 'HorizontalPodAutoscaler')].map(
        (scaler) => ((scaler.spec as Plain).scaleTargetRef as Plain).name,
      ),
    );
    for (const deployment of deployments) {
      if (((deployment.spec as Plain).replicas as number) <= 1 && !scaledAboveOne.has(deployment.metadata.name)) continue;
      const matchLabels = ((deployment.spec as Plain).selector as Plain).matchLabels;
      expect([deployment.metadata.name, selectors.includes(JSON.stringify(matchLabels))]).toEqual([deployment.metadata.name, true]);
    }
  });

  it('names only variables docs/configuration.md documents, in the ConfigMap, the Secret and every env', () => {
    const documented = new Set(
      [...readFileSync(join(__dirname, '../../docs/configuration.md'), 'utf8').matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]),
    );
    const named = [
      ...ofKind(objects, 'ConfigMap').flatMap((object) => Object.keys((object.data as Plain | undefined) ?? {})),
      ...ofKind(objects, 'Secret').flatMap((object) =>
        Object.keys({ ...((object.stringData as Plain | undefined) ?? {}), ...((object.data as Plain | undefined) ?? {}) }),
      ),
      ...workloads(objects).flatMap((workload) => podSpec(workload).containers.flatMap((container) => (container.env ?? []).map((variable) => variable.name))),
    ];
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('points every autoscaler at an existing Deployment, and every metrics-api trigger at the API Service with a queue that exists', () => {
    const names = new Set(deployments.map((deployment) => deployment.metadata.name));
    const secrets = new Map(ofKind(objects, 'Secret').map((secret) => [secret.metadata.name, secret]));
    const authentications = new Set(ofKind(objects, 'TriggerAuthentication').map((object) => object.metadata.name));
    const service = ofKind(objects, 'Service').find((object) => object.metadata.name === 'mailproof-api')!;
    const port = ((service.spec as Plain).ports as Array<{ port: number }>)[0].port;
    const queues = ['preview', 'render', 'dns-audit', 'scheduler', 'gate', 'link-check', 'webhook'];
    for (const scaler of [...ofKind(objects, 'ScaledObject'), ...ofKind(objects, 'HorizontalPodAutoscaler')]) {
      const spec = scaler.spec as Plain & { scaleTargetRef: { name: string; kind?: string }; minReplicaCount?: number; triggers?: Array<Plain> };
      expect([scaler.metadata.name, names.has(spec.scaleTargetRef.name)]).toEqual([scaler.metadata.name, true]);
      if (scaler.kind !== 'ScaledObject') continue;
      // The API's readiness needs a live worker per queue: a pool scaled to zero would take the API out of its Service.
      expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      for (const trigger of spec.triggers ?? []) {
        const metadata = trigger.metadata as Record<string, string>;
        expect(trigger.type).toBe('metrics-api');
        expect(metadata.url).toBe(`http://${service.metadata.name}.${service.metadata.namespace}.svc.cluster.local:${port}/metrics/queues`);
        expect(metadata.valueLocation).toMatch(/^queues\.[a-z-]+\.backlog$/);
        expect(queues).toContain(metadata.valueLocation.split('.')[1]);
        expect(Number(metadata.targetValue)).toBeGreaterThan(0);
        expect(authentications.has((trigger.authenticationRef as Plain).name as string)).toBe(true);
      }
    }
    for (const auth of ofKind(objects, 'TriggerAuthentication')) {
      for (const ref of (auth.spec as { secretTargetRef: Array<{ name: string; key: string }> }).secretTargetRef) {
        expect(Object.keys((secrets.get(ref.name)?.stringData as Plain | undefined) ?? {})).toContain(ref.key);
      }
    }
  });
});

describe('the overlays differ as documented', () => {
  it('small: one replica of each app, no autoscaling, no budgets; production: two or more, a KEDA ScaledObject per worker pool and a PDB each', () => {
    expect(ofKind(rendered.small, 'Deployment').map((deployment) => (deployment.spec as Plain).replicas)).toEqual([1, 1, 1, 1, 1]);
    expect(rendered.small.filter((object) => ['ScaledObject', 'HorizontalPodAutoscaler', 'PodDisruptionBudget'].includes(object.kind))).toEqual([]);
    expect(ofKind(rendered.production, 'Deployment').every((deployment) => ((deployment.spec as Plain).replicas as number) >= 2)).toBe(true);
    expect(
      ofKind(rendered.production, 'ScaledObject')
        .map((object) => object.metadata.name)
        .sort(),
    ).toEqual(['mailproof-worker-dns', 'mailproof-worker-preview', 'mailproof-worker-render']);
    expect(ofKind(rendered.production, 'HorizontalPodAutoscaler').map((object) => object.metadata.name)).toEqual(['mailproof-api']);
    expect(ofKind(rendered.production, 'PodDisruptionBudget')).toHaveLength(5);
  });
});

describe('the base Secret', () => {
  const secret = renderKustomization(join(root, 'base')).find((object) => object.kind === 'Secret')!;
  const values = secret.stringData as Record<string, string>;

  it("lists every key in docs/deploy.md's Secret step, and holds every secret setting of the configuration", () => {
    const step = /^2\. \*\*Secret\.\*\*[\s\S]*?(?=^\d\. )/m.exec(readFileSync(join(__dirname, '../../docs/deploy.md'), 'utf8'))![0];
    const listed = [...step.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]);
    expect(Object.keys(values).filter((key) => !listed.includes(key))).toEqual([]);
    // RATE_LIMIT_REDIS_URL is optional (it defaults to REDIS_URL); every other secret setting is in the Secret.
    expect(SECRET_SETTINGS.filter((name) => name !== 'RATE_LIMIT_REDIS_URL' && !(name in values))).toEqual([]);
  });

  it('is refused at start as it is (placeholders), each of its keys named', () => {
    let error: unknown;
    try {
      validateEnvironment({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://mailproof.example.com', ...values });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const refused = (error as ConfigValidationError).problems.filter((problem) => /placeholder/.test(problem.message)).map((problem) => problem.variable);
    expect(refused.sort()).toEqual(Object.keys(values).sort());
  });
});
