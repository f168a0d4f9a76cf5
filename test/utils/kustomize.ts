import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A rendered Kubernetes object (what `kubectl kustomize` prints, one per document). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

type Plain = Record<string, unknown>;

/** The subset of Kustomize that deploy/k8s uses; any other field of a kustomization.yaml is refused, never ignored. */
const SUPPORTED = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'labels', 'patches', 'images']);
/** Kinds that live outside namespaces (the namespace field leaves them alone). */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'ClusterTriggerAuthentication']);

interface Kustomization {
  namespace?: string;
  resources?: string[];
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }>;
  patches?: Array<{ path: string; target?: { kind?: string; name?: string } }>;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
}

const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

function readDocuments(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
      return document.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

/**
 * A strategic merge patch as Kustomize applies one to these manifests: maps merge key by key, lists of
 * maps that all carry `name` (containers, volumes, env, ports) merge by name, other lists are replaced.
 */
export function strategicMerge(target: unknown, patch: unknown): unknown {
  if (isPlain(target) && isPlain(patch)) {
    const out: Plain = { ...target };
    for (const [key, value] of Object.entries(patch)) out[key] = value === null ? undefined : strategicMerge(target[key], value);
    return Object.fromEntries(Object.entries(out).filter(([, value]) => value !== undefined));
  }
  const named = (list: unknown): list is Plain[] => Array.isArray(list) && list.every((item) => isPlain(item) && typeof item.name === 'string');
  if (named(target) && named(patch)) {
    const out = target.map((item) => {
      const match = patch.find((candidate) => candidate.name === item.name);
      return match ? (strategicMerge(item, match) as Plain) : item;
    });
    return [...out, ...patch.filter((item) => !target.some((existing) => existing.name === item.name))];
  }
  return patch;
}

function setImages(object: K8sObject, images: NonNullable<Kustomization['images']>): void {
  const spec = (object.spec as Plain | undefined)?.template as Plain | undefined;
  const podSpec = ((spec?.spec ?? undefined) as Plain | undefined) ?? undefined;
  const containers = [...((podSpec?.containers as Plain[] | undefined) ?? []), ...((podSpec?.initContainers as Plain[] | undefined) ?? [])];
  for (const container of containers) {
    const image = String(container.image);
    const name = image.replace(/@.*$/, '').replace(/:[^:/]+$/, '');
    const rule = images.find((candidate) => candidate.name === name);
    if (!rule) continue;
    const tag = rule.newTag ?? /:([^:/]+)$/.exec(image.replace(/@.*$/, ''))?.[1];
    container.image = `${rule.newName ?? name}${tag ? `:${tag}` : ''}`;
  }
}

function addLabels(object: K8sObject, rule: NonNullable<Kustomization['labels']>[number]): void {
  if (rule.includeSelectors) throw new Error('labels with includeSelectors are not supported by this renderer');
  object.metadata.labels = { ...object.metadata.labels, ...rule.pairs };
  const template = (object.spec as Plain | undefined)?.template as Plain | undefined;
  if (rule.includeTemplates && isPlain(template)) {
    const metadata = (template.metadata ?? {}) as Plain;
    template.metadata = { ...metadata, labels: { ...(metadata.labels as Record<string, string> | undefined), ...rule.pairs } };
  }
}

function applyPatch(objects: K8sObject[], directory: string, patch: NonNullable<Kustomization['patches']>[number]): K8sObject[] {
  const [body] = readDocuments(join(directory, patch.path));
  const target = patch.target ?? { kind: body.kind, name: body.metadata.name };
  let matched = 0;
  const out = objects.map((object) => {
    if ((target.kind && object.kind !== target.kind) || (target.name && object.metadata.name !== target.name)) return object;
    matched += 1;
    const { metadata: _ignored, ...rest } = body;
    return strategicMerge(object, rest) as K8sObject;
  });
  if (matched === 0) throw new Error(`patch ${patch.path} matches no object`);
  return out;
}

/** Renders a kustomization directory as `kubectl kustomize <directory>` would, for the subset in SUPPORTED. */
export function renderKustomization(directory: string): K8sObject[] {
  const file = join(directory, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${directory} has no kustomization.yaml`);
  const [kustomization] = readDocuments(file) as unknown as Kustomization[];
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) throw new Error(`${file}: ${unsupported.join(', ')} not supported by this renderer (test/utils/kustomize.ts)`);
  let objects: K8sObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(directory, resource);
    objects.push(...(statSync(path).isDirectory() ? renderKustomization(path) : readDocuments(path)));
  }
  objects = structuredClone(objects);
  for (const patch of kustomization.patches ?? []) objects = applyPatch(objects, directory, patch);
  for (const rule of kustomization.labels ?? []) objects.forEach((object) => addLabels(object, rule));
  if (kustomization.images) objects.forEach((object) => setImages(object, kustomization.images!));
  if (kustomization.namespace) for (const object of objects) if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
  const ids = objects.map((object) => `${object.kind}/${object.metadata.name}`);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) throw new Error(`${dirname(file)}: ${duplicate} twice`);
  return objects;
}
