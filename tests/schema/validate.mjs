// Validates what archfit fix wrote against the Kubernetes OpenAPI schemas,
// with the kubernetes-models package (ajv): every pod template that differs
// between an input file and its fixed output, and the whole object where the
// package has a model for its kind and the input object itself was valid.
//
// Karpenter's objects are checked with @kubernetes-models/karpenter. Where fix
// split a Deployment (the output has more documents than the input), every
// output document that is not an input document is checked whole.
//
// usage: node validate.mjs INPUT:OUTPUT...
// Prints one line per failure and a summary; exits 1 on any failure.
import fs from 'node:fs';
import * as yaml from 'js-yaml';
import { PodTemplate } from 'kubernetes-models/v1/PodTemplate';

const models = new Map();
async function modelFor(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (!models.has(key)) {
    const path = apiVersion.includes('/') ? `${apiVersion}/${kind}` : `v1/${kind}`;
    const pkg = apiVersion.startsWith('karpenter.sh/') ? '@kubernetes-models/karpenter' : 'kubernetes-models';
    try {
      const module = await import(`${pkg}/${path}`);
      models.set(key, module[kind] ?? null);
    } catch {
      models.set(key, null);  // a custom resource: only its pod templates are checked
    }
  }
  return models.get(key);
}

// Every object with spec.containers: the pod templates (and bare pods).
function podTemplates(node, path = '', out = []) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => podTemplates(item, `${path}[${i}]`, out));
  } else if (node && typeof node === 'object') {
    if (node.spec && Array.isArray(node.spec.containers)) out.push({ path, template: node });
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'spec' || !Array.isArray(value?.containers)) podTemplates(value, path ? `${path}.${key}` : key, out);
    }
  }
  return out;
}

function wrap(template) {
  return {
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name: 'checked' },
    template: { metadata: template.metadata ?? {}, spec: template.spec },
  };
}

// The messages of ajv's errors (kubernetes-models joins them with ", ").
function errorsOf(Model, object) {
  const message = check(Model, object);
  return new Set(message ? message.split(', ') : []);
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function check(Model, object) {
  try {
    new Model(object).validate();
    return null;
  } catch (e) {
    return e.message;
  }
}

// The documents of a stream; those js-yaml cannot represent (a mapping used
// as a key) are null and counted as unreadable.
let unreadable = 0;
function documentsOf(text) {
  try {
    return yaml.loadAll(text);
  } catch {
    return text.split(/^---(?=[ \t\r\n]|$)/m).map((piece) => {
      try {
        return yaml.load(piece);
      } catch {
        ++unreadable;
        return null;
      }
    });
  }
}

let documents = 0;
let templates = 0;
let objects = 0;
const failures = [];
for (const pair of process.argv.slice(2)) {
  const [inputFile, outputFile] = pair.split(':');
  const inputs = documentsOf(fs.readFileSync(inputFile, 'utf8'));
  const outputs = documentsOf(fs.readFileSync(outputFile, 'utf8'));
  if (inputs.length !== outputs.length) {
    if (outputs.length < inputs.length) {
      failures.push(`${outputFile}: ${outputs.length} documents, the input has ${inputs.length}`);
      continue;
    }
    // Split: the new documents are checked on their own.
    const theirs = new Set();
    for (const doc of inputs) {
      for (const { template } of podTemplates(doc)) errorsOf(PodTemplate, wrap(template)).forEach((e) => theirs.add(e));
    }
    for (const [i, after] of outputs.entries()) {
      if (!after || typeof after !== 'object' || inputs.some((before) => same(before, after))) continue;
      ++documents;
      for (const { path, template } of podTemplates(after)) {
        ++templates;
        const added = [...errorsOf(PodTemplate, wrap(template))].filter((e) => !theirs.has(e));
        if (added.length > 0) failures.push(`${outputFile}: document ${i} ${path}: ${added.join(', ')}`);
      }
      const Model = after.apiVersion && after.kind ? await modelFor(after.apiVersion, after.kind) : null;
      if (Model) {
        ++objects;
        const error = check(Model, after);
        if (error) failures.push(`${outputFile}: document ${i} (${after.kind}): ${error}`);
      }
    }
    continue;
  }
  for (let i = 0; i < outputs.length; i++) {
    const before = inputs[i];
    const after = outputs[i];
    if (same(before, after) || !after || typeof after !== 'object') continue;
    ++documents;
    const was = podTemplates(before);
    const now = podTemplates(after);
    now.forEach(({ path, template }, k) => {
      if (was[k] && same(was[k].template, template)) return;
      ++templates;
      // Only what archfit brought in counts: errors the user's template
      // already had are theirs.
      const errors = errorsOf(PodTemplate, wrap(template));
      const theirs = was[k] ? errorsOf(PodTemplate, wrap(was[k].template)) : new Set();
      const added = [...errors].filter((e) => !theirs.has(e));
      if (added.length > 0) failures.push(`${outputFile}: document ${i} ${path}: ${added.join(', ')}`);
    });
    const Model = after.apiVersion && after.kind ? await modelFor(after.apiVersion, after.kind) : null;
    if (Model && !check(Model, before)) {
      ++objects;
      const error = check(Model, after);
      if (error) failures.push(`${outputFile}: document ${i} (${after.kind}): ${error}`);
    }
  }
}
for (const f of failures) console.log(f);
console.log(`checked ${templates} pod templates and ${objects} whole objects in ${documents} changed ` +
            `documents: ${failures.length} invalid; ${unreadable} documents js-yaml cannot read`);
process.exit(failures.length > 0 ? 1 : 0);
