#!/usr/bin/env node
// Rewrites the vendored schemas in this folder from their sources (README.md says where they come from):
//   node deploy/k8s/schemas/vendor.js <_definitions.json> <scaledobject_v1alpha1.json> <triggerauthentication_v1alpha1.json>
// Keeps only the Kubernetes definitions the manifests' kinds reach, drops every `description` (most of the
// bytes; no validation keyword reads them) and writes JSON that ajv compiles as it is.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** The kinds deploy/k8s uses, by apiVersion/kind, and their definition in Kubernetes' OpenAPI. */
const KINDS = {
  'apps/v1/Deployment': 'io.k8s.api.apps.v1.Deployment',
  'batch/v1/Job': 'io.k8s.api.batch.v1.Job',
  'v1/Service': 'io.k8s.api.core.v1.Service',
  'v1/ConfigMap': 'io.k8s.api.core.v1.ConfigMap',
  'v1/Secret': 'io.k8s.api.core.v1.Secret',
  'v1/ServiceAccount': 'io.k8s.api.core.v1.ServiceAccount',
  'networking.k8s.io/v1/Ingress': 'io.k8s.api.networking.v1.Ingress',
  'policy/v1/PodDisruptionBudget': 'io.k8s.api.policy.v1.PodDisruptionBudget',
  'autoscaling/v2/HorizontalPodAutoscaler': 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
};

function stripDescriptions(value) {
  if (Array.isArray(value)) return value.map(stripDescriptions);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, inner] of Object.entries(value)) {
    // `description` is documentation, except where it names a property (a `properties` map's key).
    if (key === 'description' && typeof inner === 'string') continue;
    out[key] = stripDescriptions(inner);
  }
  return out;
}

function reachable(definitions, roots) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    if (!definitions[name]) throw new Error(`no definition ${name}`);
    seen.add(name);
    JSON.stringify(definitions[name], (key, value) => {
      if (key === '$ref' && typeof value === 'string') visit(value.replace('#/definitions/', ''));
      return value;
    });
  };
  roots.forEach(visit);
  return [...seen].sort();
}

const [definitionsPath, scaledObjectPath, triggerAuthenticationPath] = process.argv.slice(2);
if (!triggerAuthenticationPath) {
  console.error('usage: vendor.js <_definitions.json> <scaledobject_v1alpha1.json> <triggerauthentication_v1alpha1.json>');
  process.exit(2);
}
const { definitions } = JSON.parse(readFileSync(definitionsPath, 'utf8'));
const kept = Object.fromEntries(reachable(definitions, Object.values(KINDS)).map((name) => [name, stripDescriptions(definitions[name])]));
const write = (file, value) => writeFileSync(join(__dirname, file), JSON.stringify(value) + '\n');
write('kubernetes-1.32.json', { $id: 'kubernetes-1.32.json', kinds: KINDS, definitions: kept });
write('keda-scaledobject-v1alpha1.json', { $id: 'keda-scaledobject-v1alpha1.json', ...stripDescriptions(JSON.parse(readFileSync(scaledObjectPath, 'utf8'))) });
write('keda-triggerauthentication-v1alpha1.json', {
  $id: 'keda-triggerauthentication-v1alpha1.json',
  ...stripDescriptions(JSON.parse(readFileSync(triggerAuthenticationPath, 'utf8'))),
});
console.log(`kept ${Object.keys(kept).length} of ${Object.keys(definitions).length} Kubernetes definitions`);
