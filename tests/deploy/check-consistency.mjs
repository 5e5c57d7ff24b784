// Checks that the rendered objects of an overlay agree with each other, with
// the server binary (its --help), with the sources and with the Dockerfile.
// Usage: node check-consistency.mjs OVERLAY SERVER_BINARY
import fs from "node:fs";
import path from "node:path";
import { Checks, expect, idOf, readDockerfile, render, repoRoot, run, serverHelp } from "./lib.mjs";

const [kustomization, binary] = process.argv.slice(2);
const objects = render(kustomization);
const help = serverHelp(binary);
const checks = new Checks(`consistency of ${kustomization}`);

const all = (kind) => objects.filter((o) => o.kind === kind);
const one = (kind) => {
  const found = all(kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
};
const named = (kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const matches = (selector, labels) =>
  Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v) && Object.keys(selector ?? {}).length > 0;

const deployment = one("Deployment");
const job = named("Job", "foxgeese-migrate");
const service = one("Service");
const workloads = [deployment, job];
const podSpec = (w) => w.spec.template.spec;
const container = (w) => {
  const containers = podSpec(w).containers;
  expect(containers.length === 1, `${idOf(w)}: expected one container`);
  return containers[0];
};
const server = container(deployment);
const migrate = container(job);

// The environment the server would see: the ConfigMap (envFrom), then env.
function settings(w) {
  const c = container(w);
  const values = new Map();
  for (const source of c.envFrom ?? []) {
    expect(source.configMapRef, `${idOf(w)}: envFrom other than a ConfigMap`);
    const configMap = named("ConfigMap", source.configMapRef.name);
    expect(configMap, `${idOf(w)}: ConfigMap ${source.configMapRef.name} is not in the render`);
    for (const [k, v] of Object.entries(configMap.data ?? {})) values.set(k, { value: v });
  }
  for (const e of c.env ?? []) values.set(e.name, e.valueFrom ? { from: e.valueFrom } : { value: e.value ?? "" });
  return values;
}

// The value a flag ends up with: --flag in args, its variable, its default.
function effective(w, flag) {
  const args = container(w).args ?? [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith(`${flag}=`)) return args[i].slice(flag.length + 1);
    if (args[i] === flag) return args[i + 1];
  }
  const { env, defaultValue } = help.flags.get(flag);
  const set = settings(w).get(env);
  return set?.value ? set.value : defaultValue;
}

const portNumber = (flag) => Number(effective(deployment, flag));
const containerPort = (name) => server.ports?.find((p) => p.name === name)?.containerPort;

checks.check("the server listens where the container ports say", () => {
  expect(containerPort("grpc") === portNumber("--grpc-port"), `grpc containerPort ${containerPort("grpc")} but --grpc-port ${portNumber("--grpc-port")}`);
  expect(containerPort("http") === portNumber("--http-port"), `http containerPort ${containerPort("http")} but --http-port ${portNumber("--http-port")}`);
});

checks.check("probes use gRPC health on the gRPC container port", () => {
  const { readinessProbe: ready, livenessProbe: live } = server;
  expect(ready?.grpc && live?.grpc, "readiness and liveness must both be gRPC probes");
  for (const probe of [ready, live, server.startupProbe].filter(Boolean)) {
    const port = probe.grpc?.port ?? probe.httpGet?.port ?? probe.tcpSocket?.port;
    expect(port === containerPort("grpc") || port === "grpc", `probe port ${port} is not the gRPC container port`);
  }
  // Readiness is the overall service "", which mirrors database + migrations.
  expect(!ready.grpc.service, `readiness asks service "${ready.grpc.service}", not ""`);
  expect(live.grpc.service, "liveness must not ask service \"\": a database outage would restart every pod");
});

checks.check("the liveness probe's health service is one the server registers", () => {
  const wanted = server.livenessProbe.grpc.service;
  const sources = fs
    .readdirSync(path.join(repoRoot, "service"), { recursive: true })
    .filter((f) => f.endsWith(".cpp"))
    .map((f) => fs.readFileSync(path.join(repoRoot, "service", f), "utf8"));
  expect(
    sources.some((text) => text.includes(`"${wanted}"`)),
    `no "${wanted}" in service/**/*.cpp: the probe would get NOT_FOUND and restart the pod`,
  );
});

checks.check("Service selects the server pods only and targets its container ports", () => {
  expect(matches(service.spec.selector, deployment.spec.template.metadata.labels), "selector misses the Deployment's pods");
  expect(!matches(service.spec.selector, job.spec.template.metadata.labels), "selector also matches the migration Job's pods");
  for (const port of service.spec.ports) {
    const target = server.ports.find((p) => p.name === port.targetPort || p.containerPort === port.targetPort);
    expect(target, `Service port ${port.name} targets ${port.targetPort}, which is no container port`);
    const wanted = { grpc: "kubernetes.io/h2c", http: "http" }[target.name];
    expect(port.appProtocol === wanted, `Service port ${port.name}: appProtocol ${port.appProtocol}, want ${wanted}`);
  }
});

checks.check("routes attach to listeners of a rendered Gateway and back onto the Service", () => {
  const routes = [...all("GRPCRoute"), ...all("HTTPRoute")];
  expect(all("GRPCRoute").length && all("HTTPRoute").length, "expected a GRPCRoute and an HTTPRoute");
  for (const route of routes) {
    for (const parent of route.spec.parentRefs) {
      const gateway = named("Gateway", parent.name);
      expect(gateway, `${idOf(route)}: Gateway ${parent.name} is not in the render`);
      const listener = gateway.spec.listeners.find((l) => l.name === parent.sectionName);
      expect(listener, `${idOf(route)}: Gateway ${parent.name} has no listener ${parent.sectionName}`);
      const kinds = listener.allowedRoutes?.kinds?.map((k) => k.kind);
      expect(!kinds || kinds.includes(route.kind), `${idOf(route)}: listener ${listener.name} admits only ${kinds}`);
      for (const host of route.spec.hostnames ?? []) {
        expect(!listener.hostname || listener.hostname === host, `${idOf(route)}: hostname ${host} is not the listener's ${listener.hostname}`);
      }
    }
    const wanted = route.kind === "GRPCRoute" ? "kubernetes.io/h2c" : "http";
    for (const rule of route.spec.rules) {
      for (const backend of rule.backendRefs) {
        const target = named("Service", backend.name);
        expect(!backend.kind || backend.kind === "Service", `${idOf(route)}: backend kind ${backend.kind}`);
        expect(target, `${idOf(route)}: Service ${backend.name} is not in the render`);
        const port = target.spec.ports.find((p) => p.port === backend.port);
        expect(port, `${idOf(route)}: Service ${backend.name} has no port ${backend.port}`);
        expect(port.appProtocol === wanted, `${idOf(route)}: backend port ${backend.port} speaks ${port.appProtocol}, want ${wanted}`);
      }
    }
  }
});

checks.check("gRPC and REST routes do not share a hostname", () => {
  const hosts = (kind) => new Set(all(kind).flatMap((r) => r.spec.hostnames ?? ["*"]));
  const shared = [...hosts("GRPCRoute")].filter((h) => hosts("HTTPRoute").has(h) || h === "*");
  expect(!shared.length, `the Gateway API accepts only one route kind per hostname: ${shared}`);
});

// The API as the protos declare it: per rpc its service, whether it streams
// responses, and its REST paths ("/v1/games/{game_id}" -> "/v1/games/g-1").
const rpcs = [];
(function collect(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "google") collect(file);
    if (!entry.name.endsWith(".proto")) continue;
    const text = fs.readFileSync(file, "utf8");
    const pkg = text.match(/^package\s+([\w.]+);/m)?.[1];
    for (const block of text.split(/^service\s+/m).slice(1)) {
      const service = `${pkg}.${block.match(/^\w+/)[0]}`;
      for (const rpc of block.split(/\brpc\s+/).slice(1)) {
        const [, method, streaming] = rpc.match(/^(\w+)\s*\([^)]*\)\s*returns\s*\(\s*(stream\s)?/);
        const paths = [...rpc.matchAll(/\b(?:get|post|put|patch|delete):\s*"([^"]+)"/g)].map((m) => m[1].replace(/\{[^}]+\}/g, "g-1"));
        rpcs.push({ service, method, streaming: Boolean(streaming), paths });
      }
    }
  }
})(path.join(repoRoot, "proto"));
const restPaths = rpcs.flatMap((r) => r.paths);

// The HTTPRoute rule a request path lands on, ranked as Envoy Gateway does:
// Exact, then RegularExpression, then the longest PathPrefix.
function httpRuleFor(requestPath) {
  const candidates = all("HTTPRoute").flatMap((route) =>
    route.spec.rules.flatMap((rule) =>
      (rule.matches ?? [{}]).map((match) => ({ rule, ...(match.path ?? { type: "PathPrefix", value: "/" }) })),
    ),
  );
  const hits = candidates.filter(({ type, value }) =>
    type === "Exact" ? requestPath === value
      : type === "RegularExpression" ? new RegExp(value).test(requestPath)
        : requestPath === value || requestPath.startsWith(value.replace(/\/?$/, "/")),
  );
  const rank = ({ type, value }) => ({ Exact: 3e6, RegularExpression: 2e6 })[type] ?? 1e6 + value.length;
  return hits.sort((a, b) => rank(b) - rank(a))[0]?.rule;
}

checks.check("GRPCRoute matches name services and methods the protos declare", () => {
  expect(rpcs.length, "no rpcs found in proto/");
  for (const route of all("GRPCRoute")) {
    for (const match of route.spec.rules.flatMap((r) => r.matches ?? [])) {
      const { service, method } = match.method ?? {};
      if (service) expect(rpcs.some((r) => r.service === service), `${idOf(route)}: no service ${service} in proto/`);
      if (method) expect(rpcs.some((r) => r.service === service && r.method === method), `${idOf(route)}: no rpc ${service}/${method}`);
    }
  }
});

checks.check("HTTPRoute paths each match some REST path of the API, and every REST path is routed", () => {
  expect(restPaths.length, "no google.api.http paths found in proto/");
  for (const route of all("HTTPRoute")) {
    for (const match of route.spec.rules.flatMap((r) => r.matches ?? [])) {
      const { type = "PathPrefix", value = "/" } = match.path ?? {};
      const hit = restPaths.some((p) =>
        type === "Exact" ? p === value : type === "RegularExpression" ? new RegExp(value).test(p) : p === value || p.startsWith(value.replace(/\/?$/, "/")),
      );
      expect(hit, `${type} ${value} matches none of ${restPaths.join(" ")}`);
    }
  }
  const unrouted = restPaths.filter((p) => !httpRuleFor(p));
  expect(!unrouted.length, `not routed: ${unrouted.join(" ")}`);
});

checks.check("Envoy Gateway policies target rendered routes", () => {
  for (const policy of all("BackendTrafficPolicy")) {
    for (const ref of policy.spec.targetRefs ?? [policy.spec.targetRef]) {
      expect(named(ref.kind, ref.name), `${idOf(policy)}: ${ref.kind}/${ref.name} is not in the render`);
    }
  }
});

// A constant `name = <a> * 1024` (or a plain number) from a source file.
function sourceBytes(file, name) {
  const text = fs.readFileSync(path.join(repoRoot, file), "utf8");
  const found = text.match(new RegExp(`${name}\\s*=\\s*([0-9']+)(\\s*\\*\\s*1024)?`));
  expect(found, `no ${name} in ${file}`);
  return Number(found[1].replaceAll("'", "")) * (found[2] ? 1024 : 1);
}

checks.check("the gateway's header limit lies between the server's call limit and gRPC's", () => {
  const gateway = one("Gateway");
  const policies = all("EnvoyPatchPolicy");
  expect(policies.length === 1, `expected one EnvoyPatchPolicy, found ${policies.length}`);
  const [policy] = policies;
  expect(policy.spec.targetRef.name === gateway.metadata.name, "the patch targets another Gateway");
  // Envoy Gateway merges the HTTPS listeners of a port into one xDS listener
  // named after the first, with one filter chain per listener.
  const ports = new Map();
  for (const l of gateway.spec.listeners) ports.set(l.port, [...(ports.get(l.port) ?? []), l.name]);
  const gatewayCap = sourceBytes("service/app/replica.cpp", "kGrpcMetadataLimitBytes");
  const callCap = sourceBytes("service/grpc/grpc_game_service.h", "kMaxCallMetadataBytes");
  for (const [port, names] of ports) {
    const listener = `${gateway.metadata.namespace}/${gateway.metadata.name}/${names[0]}`;
    for (let chain = 0; chain < names.length; chain++) {
      const patch = policy.spec.jsonPatches.find(
        (p) => p.name === listener && p.operation.path === `/filter_chains/${chain}/filters/0/typed_config/max_request_headers_kb`,
      );
      expect(patch, `port ${port}: no header limit for filter chain ${chain} of ${listener}`);
      const bytes = patch.operation.value * 1024;
      expect(bytes < gatewayCap, `port ${port}: the gateway passes ${bytes} bytes of headers, gRPC's own limit is ${gatewayCap}`);
      expect(bytes > callCap, `port ${port}: the gateway limit ${bytes} is below the server's per-call ${callCap}, which then never answers`);
    }
  }
});

checks.check("streaming calls, and only they, escape the gateway's request timeout", () => {
  const unbounded = (value) => /^0+(h|m|s|ms)?$/.test(String(value ?? ""));
  const lifted = (route) =>
    all("BackendTrafficPolicy").some(
      (p) => (p.spec.targetRefs ?? []).some((r) => r.kind === route.kind && r.name === route.metadata.name) && unbounded(p.spec.timeout?.http?.requestTimeout),
    );
  for (const rpc of rpcs) {
    // gRPC: a route matching exactly this method, whose timeout a policy lifts.
    const routes = all("GRPCRoute").filter((route) =>
      route.spec.rules.some((rule) => (rule.matches ?? []).some((m) => m.method?.service === rpc.service && m.method?.method === rpc.method)),
    );
    if (rpc.streaming) {
      expect(routes.some(lifted), `gRPC ${rpc.method} streams, but no GRPCRoute for it has its request timeout lifted`);
    }
    // REST: the rule the path lands on.
    for (const p of rpc.paths) {
      const rule = httpRuleFor(p);
      const open = unbounded(rule?.timeouts?.request);
      expect(open === rpc.streaming, `REST ${p} (${rpc.method}) lands on a rule with request timeout ${rule?.timeouts?.request ?? "default"}`);
    }
  }
  for (const route of all("GRPCRoute").filter(lifted)) {
    const methods = route.spec.rules.flatMap((rule) => (rule.matches ?? []).map((m) => m.method ?? {}));
    const unary = methods.filter((m) => !rpcs.some((r) => r.service === m.service && r.method === m.method && r.streaming));
    expect(!unary.length, `${idOf(route)} has no request timeout but also routes unary calls: ${JSON.stringify(unary)}`);
  }
});

checks.check("every environment variable and flag given to the server exists in --help", () => {
  for (const w of workloads) {
    for (const name of settings(w).keys()) {
      expect(help.envs.has(name), `${idOf(w)}: ${name} is not a foxgeese-server variable (a typo is silently ignored)`);
    }
    const args = container(w).args ?? [];
    for (const arg of args.filter((a) => a.startsWith("-"))) {
      expect(help.flags.has(arg.split("=")[0]), `${idOf(w)}: flag ${arg} is not in --help`);
    }
  }
});

checks.check("the server parses the settings (a run with them ends on the database, not on config)", () => {
  // Exit 2 is a configuration error; 1 is the unreachable database below.
  for (const w of workloads) {
    const env = { PATH: process.env.PATH };
    for (const [name, s] of settings(w)) env[name] = s.value ?? "";
    env.DATABASE_URL = "postgresql://foxgeese@127.0.0.1:1/foxgeese?connect_timeout=5";
    const flags = (container(w).args ?? []).filter((a) => a.startsWith("-"));
    const result = run(binary, ["migrate", ...flags], { env, timeout: 30000 });
    expect(result.status === 1, `${idOf(w)}: exit ${result.status}\n${result.stderr}${result.stdout}`);
  }
});

checks.check("the Deployment serves and the Job migrates; serve does not migrate itself", () => {
  expect((server.args ?? ["serve"])[0] === "serve", `Deployment args ${server.args}`);
  expect(migrate.args?.[0] === "migrate", `Job args ${migrate.args}: want migrate`);
  expect(effective(deployment, "--migrate-on-start") === "false", "FOXGEESE_MIGRATE_ON_START must be false: the Job migrates");
  expect(["Never", "OnFailure"].includes(podSpec(job).restartPolicy), "Job restartPolicy");
});

checks.check("the Deployment and the Job run the same pinned image", () => {
  expect(server.image === migrate.image, `${server.image} vs ${migrate.image}`);
  expect(/(:[\w][\w.-]*|@sha256:[0-9a-f]{64})$/.test(server.image.replace(/^[^/]*\//, "")), `${server.image} has no tag`);
  expect(!server.image.endsWith(":latest"), "the image must not be :latest");
});

// The tablebase component (deploy/k8s/components/tablebase), when the overlay
// has it: the Job builds into the volume the servers read, where they look.
const tablebaseJob = named("Job", "foxgeese-tablebase");
if (tablebaseJob) {
  checks.check("the tablebase Job builds into the volume the servers mount read-only, at their --tablebase-dir", () => {
    const build = container(tablebaseJob);
    expect(build.image === server.image, `the tablebase Job runs ${build.image}, the servers ${server.image}`);
    const copied = readDockerfile().at(-1).instructions.filter((i) => i.keyword === "COPY").map((i) => i.args.split(" ").at(-1));
    expect(copied.includes(build.command?.[0]), `the Job runs ${build.command}, which the image does not hold (${copied})`);
    const args = build.args ?? [];
    expect(args[0] === "tablebase" && args[1] === "build", `the Job's args ${args}: want tablebase build`);
    const dir = args[args.indexOf("--dir") + 1];
    expect(args.includes("--dir") && dir, "the Job names no --dir");
    expect(effective(deployment, "--tablebase-dir") === dir, `the servers read ${effective(deployment, "--tablebase-dir")}, the Job writes ${dir}`);
    const claimAt = (w, c, at) => {
      const mount = (c.volumeMounts ?? []).find((m) => m.mountPath === at);
      expect(mount, `${idOf(w)} mounts nothing at ${at}`);
      const volume = (podSpec(w).volumes ?? []).find((v) => v.name === mount.name);
      return { claim: volume?.persistentVolumeClaim?.claimName, readOnly: mount.readOnly === true };
    };
    const written = claimAt(tablebaseJob, build, dir);
    const read = claimAt(deployment, server, dir);
    expect(written.claim && written.claim === read.claim, `the Job writes claim ${written.claim}, the servers read ${read.claim}`);
    expect(named("PersistentVolumeClaim", written.claim), `claim ${written.claim} is not in the render`);
    expect(read.readOnly && !written.readOnly, "the servers' mount must be read-only and the Job's writable");
    expect(["Never", "OnFailure"].includes(podSpec(tablebaseJob).restartPolicy), "tablebase Job restartPolicy");
    const secured = build.securityContext ?? {};
    expect(podSpec(tablebaseJob).securityContext?.runAsNonRoot === true && secured.runAsNonRoot === true &&
      secured.readOnlyRootFilesystem === true && secured.allowPrivilegeEscalation === false,
      "the tablebase Job must run as non-root, read-only, without privilege escalation");
  });
}

checks.check("terminationGracePeriodSeconds exceeds preStop plus --drain-seconds", () => {
  const drain = Number(effective(deployment, "--drain-seconds"));
  const preStop = server.lifecycle?.preStop;
  const sleep = Number(preStop?.sleep?.seconds ?? (preStop?.exec?.command?.join(" ").match(/sleep (\d+)/)?.[1] ?? 0));
  const grace = podSpec(deployment).terminationGracePeriodSeconds ?? 30;
  expect(grace > sleep + drain, `grace ${grace}s <= preStop ${sleep}s + drain ${drain}s`);
});

checks.check("pods run as the image's non-root user, read-only, without privileges", () => {
  const runtime = readDockerfile().at(-1);
  const user = runtime.instructions.filter((i) => i.keyword === "USER").at(-1)?.args;
  const uid = Number(user?.split(":")[0]);
  expect(Number.isInteger(uid) && uid > 0, `Dockerfile USER ${user} is not a numeric non-root uid`);
  for (const w of workloads) {
    const pod = podSpec(w).securityContext ?? {};
    const c = container(w).securityContext ?? {};
    const where = idOf(w);
    expect(pod.runAsNonRoot === true && c.runAsNonRoot === true, `${where}: runAsNonRoot`);
    expect(pod.runAsUser === uid && (c.runAsUser ?? uid) === uid, `${where}: runAsUser is not the image's uid ${uid}`);
    expect(c.readOnlyRootFilesystem === true, `${where}: readOnlyRootFilesystem`);
    expect(c.allowPrivilegeEscalation === false, `${where}: allowPrivilegeEscalation`);
    expect(c.capabilities?.drop?.includes("ALL"), `${where}: capabilities.drop ALL`);
    expect(!c.capabilities?.add?.length, `${where}: capabilities.add`);
    expect((c.seccompProfile ?? pod.seccompProfile)?.type === "RuntimeDefault", `${where}: seccompProfile RuntimeDefault`);
    const tmp = container(w).volumeMounts?.find((m) => m.mountPath === "/tmp");
    const volume = podSpec(w).volumes?.find((v) => v.name === tmp?.name);
    expect(volume?.emptyDir, `${where}: /tmp is not an emptyDir`);
  }
});

checks.check("no service account token, and the account exists", () => {
  for (const w of workloads) {
    const account = named("ServiceAccount", podSpec(w).serviceAccountName);
    expect(account, `${idOf(w)}: ServiceAccount ${podSpec(w).serviceAccountName} is not in the render`);
    expect(account.automountServiceAccountToken === false, `${idOf(account)} automounts its token`);
    expect(podSpec(w).automountServiceAccountToken === false, `${idOf(w)} automounts the token`);
  }
});

checks.check("every container has CPU and memory requests and limits", () => {
  for (const w of workloads) {
    const { requests = {}, limits = {} } = container(w).resources ?? {};
    expect(requests.cpu && requests.memory && limits.cpu && limits.memory, `${idOf(w)}: resources ${JSON.stringify(container(w).resources)}`);
  }
});

checks.check("DATABASE_URL comes from a Secret that this render provides", () => {
  const refs = workloads.map((w) => settings(w).get("DATABASE_URL")?.from?.secretKeyRef);
  expect(refs.every(Boolean), "DATABASE_URL must come from a secretKeyRef in the Deployment and the Job");
  expect(refs[0].name === refs[1].name && refs[0].key === refs[1].key, "the Deployment and the Job read different Secrets");
  const { name, key } = refs[0];
  const secret = named("Secret", name);
  // CloudNativePG generates "<cluster>-app" with the URL under "uri".
  const cluster = all("Cluster").find((c) => `${c.metadata.name}-app` === name);
  expect(secret || cluster, `Secret ${name} is neither rendered nor a CloudNativePG Cluster's app secret`);
  if (cluster) expect(key === "uri", `CNPG's app secret keeps the URL under "uri", not "${key}"`);
  if (secret) expect(key in (secret.data ?? {}) || key in (secret.stringData ?? {}), `Secret ${name} has no key ${key}`);
});

checks.check("HPA scales the Deployment on CPU within sane bounds", () => {
  const hpa = one("HorizontalPodAutoscaler");
  const ref = hpa.spec.scaleTargetRef;
  expect(ref.kind === "Deployment" && ref.name === deployment.metadata.name, `scaleTargetRef ${ref.kind}/${ref.name}`);
  expect(hpa.spec.metrics.some((m) => m.resource?.name === "cpu"), "no CPU metric");
  expect(hpa.spec.minReplicas <= hpa.spec.maxReplicas, "minReplicas > maxReplicas");
  // kubectl apply resets replicas to this; outside the HPA's range it fights it.
  expect(deployment.spec.replicas === hpa.spec.minReplicas, `replicas ${deployment.spec.replicas} != minReplicas ${hpa.spec.minReplicas}`);
});

checks.check("PodDisruptionBudget covers the server pods and lets nodes drain", () => {
  const pdb = one("PodDisruptionBudget");
  expect(matches(pdb.spec.selector.matchLabels, deployment.spec.template.metadata.labels), "selector misses the server pods");
  if (pdb.spec.minAvailable !== undefined) {
    expect(pdb.spec.minAvailable < deployment.spec.replicas, "minAvailable >= replicas blocks every drain");
  }
});

checks.check("NetworkPolicy: ingress on the two ports from the gateway, egress to PostgreSQL and DNS only", () => {
  const policy = one("NetworkPolicy");
  for (const w of workloads) {
    expect(matches(policy.spec.podSelector.matchLabels, w.spec.template.metadata.labels), `does not select ${idOf(w)}`);
  }
  expect(policy.spec.policyTypes.includes("Ingress") && policy.spec.policyTypes.includes("Egress"), "policyTypes");
  const known = new Set(server.ports.flatMap((p) => [p.name, p.containerPort]));
  const ingressPorts = new Set();
  for (const rule of policy.spec.ingress) {
    expect(rule.from?.length && rule.ports?.length, "an ingress rule without peers or ports allows too much");
    for (const p of rule.ports) {
      expect(known.has(p.port), `ingress port ${p.port} is no container port`);
      ingressPorts.add(server.ports.find((c) => c.name === p.port || c.containerPort === p.port).name);
    }
  }
  expect(ingressPorts.has("grpc") && ingressPorts.has("http"), "the gateway must reach both ports");
  // The gateway peer must be this overlay's Gateway.
  const gateway = one("Gateway");
  const peer = policy.spec.ingress[0].from[0].podSelector?.matchLabels ?? {};
  expect(peer["gateway.envoyproxy.io/owning-gateway-name"] === gateway.metadata.name, "gateway peer: owning-gateway-name");
  if (gateway.metadata.namespace) {
    expect(peer["gateway.envoyproxy.io/owning-gateway-namespace"] === gateway.metadata.namespace, `gateway peer: owning-gateway-namespace is not ${gateway.metadata.namespace}`);
  }
  const egress = policy.spec.egress.flatMap((rule) => {
    expect(rule.ports?.length, "an egress rule without ports allows everything");
    return rule.ports.map((p) => `${p.protocol ?? "TCP"}/${p.port}`);
  });
  expect(
    JSON.stringify([...new Set(egress)].sort()) === JSON.stringify(["TCP/53", "TCP/5432", "UDP/53"]),
    `egress ports ${egress}`,
  );
});

checks.check("PostgreSQL max_connections covers every pool at the HPA's maximum", () => {
  const cluster = all("Cluster")[0];
  if (!cluster) return; // the database is not part of this render
  const hpa = one("HorizontalPodAutoscaler");
  const surge = deployment.spec.strategy?.rollingUpdate?.maxSurge ?? "25%";
  const extra = String(surge).endsWith("%") ? Math.ceil((hpa.spec.maxReplicas * parseInt(surge, 10)) / 100) : Number(surge);
  const pool = Number(effective(deployment, "--db-pool-size"));
  // Each server: its pool plus the watch hub's LISTEN connection; the Job: one.
  const needed = (hpa.spec.maxReplicas + extra) * (pool + 1) + 1;
  const limit = Number(cluster.spec.postgresql?.parameters?.max_connections ?? 100);
  // PostgreSQL keeps 3 for superusers; CNPG's own agents use a few more.
  expect(needed <= limit - 10, `${needed} connections needed, max_connections ${limit}`);
});

checks.finish();
