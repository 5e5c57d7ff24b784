// Validates every object an overlay renders against the Kubernetes and Gateway
// API schemas (npm kubernetes-models, @kubernetes-models/gateway-api), and
// rejects fields those schemas do not define.
// CloudNativePG and Envoy Gateway publish no such package, so their objects
// get the checks below instead, taken from their CRDs: for a CNPG Cluster the
// apiVersion and kind, the one required field (spec.instances, >= 1), the
// storage size, string-only postgresql.parameters and the bootstrap names;
// for an Envoy Gateway BackendTrafficPolicy the target references and the
// timeout's duration format.
// Usage: node check-schemas.mjs OVERLAY   (e.g. overlays/prod)
import { Checks, expect, idOf, render } from "./lib.mjs";
import { declarationFile, unknownFields } from "./fields.mjs";

const kustomization = process.argv[2];
const objects = render(kustomization);
const checks = new Checks(`schemas of ${kustomization}`);

// kubernetes-models/apps/v1/Deployment, kubernetes-models/v1/Service, ...
function modelSpecifier({ apiVersion, kind }) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : [null, apiVersion];
  if (group === "gateway.networking.k8s.io") {
    return `@kubernetes-models/gateway-api/${group}/${version}/${kind}`;
  }
  return `kubernetes-models/${group ? `${group}/` : ""}${version}/${kind}`;
}

const quantity = /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

function checkCnpgCluster(cluster) {
  expect(cluster.apiVersion === "postgresql.cnpg.io/v1", `apiVersion ${cluster.apiVersion}`);
  expect(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(cluster.metadata?.name ?? ""), "metadata.name is not a DNS label");
  const spec = cluster.spec ?? {};
  expect(Number.isInteger(spec.instances) && spec.instances >= 1, "spec.instances (required) must be an integer >= 1");
  expect(
    typeof spec.storage?.size === "string" && quantity.test(spec.storage.size),
    "spec.storage.size must be a quantity string such as 20Gi",
  );
  for (const [name, value] of Object.entries(spec.postgresql?.parameters ?? {})) {
    expect(typeof value === "string", `spec.postgresql.parameters.${name} must be a string (quote it)`);
  }
  const initdb = spec.bootstrap?.initdb;
  if (initdb) {
    for (const key of ["database", "owner"]) {
      expect(typeof initdb[key] === "string" && initdb[key], `spec.bootstrap.initdb.${key} must be a name`);
    }
  }
  if (spec.imageName !== undefined) {
    expect(/^[^\s:]+(:[\w.-]+)?(@sha256:[0-9a-f]{64})?$/.test(spec.imageName), "spec.imageName is not an image reference");
  }
}

// Model classes, imported up front (imports are asynchronous, checks not).
const models = new Map();
for (const object of objects) {
  const specifier = modelSpecifier(object);
  if (models.has(specifier)) continue;
  try {
    models.set(specifier, await import(specifier));
  } catch {
    models.set(specifier, null);
  }
}

// Gateway API durations (GEP-2257), as the policy's timeouts use them.
const duration = /^([0-9]{1,5}(h|m|s|ms)){1,4}$/;

const known = (object, keys, where) => {
  const extra = Object.keys(object ?? {}).filter((k) => !keys.includes(k));
  expect(!extra.length, `${where}: fields the schema does not define: ${extra.join(", ")}`);
};

const cidr = /^(([0-9]{1,3}\.){3}[0-9]{1,3}\/[0-9]{1,2}|[0-9a-fA-F:]*:[0-9a-fA-F:]*\/[0-9]{1,3})$/;

// BackendTrafficPolicy.spec.rateLimit as Envoy Gateway's CRD defines it.
function checkRateLimit(rateLimit) {
  known(rateLimit, ["type", "global", "local"], "spec.rateLimit");
  expect(["Global", "Local"].includes(rateLimit.type), `spec.rateLimit.type ${rateLimit.type}`);
  const body = rateLimit.type === "Global" ? rateLimit.global : rateLimit.local;
  const where = `spec.rateLimit.${rateLimit.type.toLowerCase()}`;
  expect(body, `${where} is required for type ${rateLimit.type}`);
  known(body, ["rules"], where);
  expect(Array.isArray(body.rules) && body.rules.length, `${where}.rules is empty`);
  for (const [i, rule] of body.rules.entries()) {
    const at = `${where}.rules[${i}]`;
    known(rule, ["clientSelectors", "limit", "cost", "shared"], at);
    known(rule.limit, ["requests", "unit"], `${at}.limit`);
    expect(Number.isInteger(rule.limit?.requests) && rule.limit.requests > 0, `${at}.limit.requests must be a positive integer`);
    expect(["Second", "Minute", "Hour", "Day", "Month", "Year"].includes(rule.limit?.unit), `${at}.limit.unit ${rule.limit?.unit}`);
    for (const [j, selector] of (rule.clientSelectors ?? []).entries()) {
      const sel = `${at}.clientSelectors[${j}]`;
      known(selector, ["headers", "sourceCIDR", "methods", "path"], sel);
      if (selector.sourceCIDR) {
        known(selector.sourceCIDR, ["type", "value"], `${sel}.sourceCIDR`);
        expect(["Exact", "Distinct"].includes(selector.sourceCIDR.type), `${sel}.sourceCIDR.type ${selector.sourceCIDR.type}`);
        expect(cidr.test(selector.sourceCIDR.value), `${sel}.sourceCIDR.value ${selector.sourceCIDR.value} is not a CIDR`);
      }
    }
  }
}

function checkBackendTrafficPolicy(policy) {
  expect(policy.apiVersion === "gateway.envoyproxy.io/v1alpha1", `apiVersion ${policy.apiVersion}`);
  const spec = policy.spec ?? {};
  const refs = spec.targetRefs ?? (spec.targetRef ? [spec.targetRef] : []);
  expect(refs.length, "spec.targetRefs is required");
  for (const ref of refs) {
    expect(ref.group === "gateway.networking.k8s.io", `targetRef group ${ref.group}`);
    expect(["Gateway", "HTTPRoute", "GRPCRoute", "TCPRoute", "UDPRoute", "TLSRoute"].includes(ref.kind), `targetRef kind ${ref.kind}`);
    expect(typeof ref.name === "string" && ref.name, "targetRef name");
  }
  known(spec, ["targetRefs", "targetRef", "timeout", "rateLimit"], "spec");
  if (spec.rateLimit) checkRateLimit(spec.rateLimit);
  for (const [key, value] of Object.entries(spec.timeout?.http ?? {})) {
    expect(duration.test(String(value)), `spec.timeout.http.${key}: ${value} is not a duration`);
  }
  for (const [key, value] of Object.entries(spec.timeout?.tcp ?? {})) {
    expect(duration.test(String(value)), `spec.timeout.tcp.${key}: ${value} is not a duration`);
  }
}

// Envoy Gateway's EnvoyPatchPolicy (gateway.envoyproxy.io/v1alpha1), field by
// field as its CRD defines them; unknown fields are refused like elsewhere.
const patchResourceTypes = [
  "type.googleapis.com/envoy.config.listener.v3.Listener",
  "type.googleapis.com/envoy.config.route.v3.RouteConfiguration",
  "type.googleapis.com/envoy.config.cluster.v3.Cluster",
  "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
  "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret",
];
function checkEnvoyPatchPolicy(policy) {
  expect(policy.apiVersion === "gateway.envoyproxy.io/v1alpha1", `apiVersion ${policy.apiVersion}`);
  const spec = policy.spec ?? {};
  known(spec, ["type", "jsonPatches", "targetRef", "priority"], "spec");
  expect(spec.type === "JSONPatch", `spec.type ${spec.type} (only JSONPatch exists)`);
  const ref = spec.targetRef ?? {};
  known(ref, ["group", "kind", "name", "namespace"], "spec.targetRef");
  expect(ref.group === "gateway.networking.k8s.io", `targetRef group ${ref.group}`);
  expect(["Gateway", "GatewayClass"].includes(ref.kind), `targetRef kind ${ref.kind}`);
  expect(typeof ref.name === "string" && ref.name, "targetRef name");
  expect(Array.isArray(spec.jsonPatches) && spec.jsonPatches.length, "spec.jsonPatches is empty");
  for (const [i, patch] of spec.jsonPatches.entries()) {
    known(patch, ["type", "name", "operation"], `spec.jsonPatches[${i}]`);
    expect(patchResourceTypes.includes(patch.type), `jsonPatches[${i}].type ${patch.type}`);
    expect(typeof patch.name === "string" && patch.name, `jsonPatches[${i}].name`);
    const op = patch.operation ?? {};
    known(op, ["op", "path", "from", "value"], `spec.jsonPatches[${i}].operation`);
    expect(["add", "remove", "replace", "move", "copy", "test"].includes(op.op), `jsonPatches[${i}] op ${op.op}`);
    expect(typeof op.path === "string" && op.path.startsWith("/"), `jsonPatches[${i}] path ${op.path} is no JSON pointer`);
    expect(op.op === "remove" || "value" in op || "from" in op, `jsonPatches[${i}] has no value`);
  }
}

expect(objects.length > 0, `${kustomization} rendered nothing`);
for (const object of objects) {
  checks.check(`${idOf(object)} (${object.apiVersion})`, () => {
    if (object.apiVersion?.startsWith("postgresql.cnpg.io/") && object.kind === "Cluster") {
      checkCnpgCluster(object);
      return;
    }
    if (object.apiVersion?.startsWith("gateway.envoyproxy.io/") && object.kind === "BackendTrafficPolicy") {
      checkBackendTrafficPolicy(object);
      return;
    }
    if (object.apiVersion?.startsWith("gateway.envoyproxy.io/") && object.kind === "EnvoyPatchPolicy") {
      checkEnvoyPatchPolicy(object);
      return;
    }
    const specifier = modelSpecifier(object);
    const Model = models.get(specifier)?.[object.kind];
    expect(Model, `no schema for ${object.apiVersion} ${object.kind} in the pinned packages`);
    new Model(object).validate();
    const unknown = unknownFields(object, declarationFile(specifier));
    expect(!unknown.length, `fields the schema does not define: ${unknown.join(", ")}`);
  });
}
checks.finish();
