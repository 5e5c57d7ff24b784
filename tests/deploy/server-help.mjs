// The server's flags and environment variables, from its --help. Node.js
// modules only, so that checks outside tests/deploy can use it before (or
// without) the deploy checks' npm packages.
import { spawnSync } from "node:child_process";

// `foxgeese-server --help` as
//   --grpc-port PORT
//       gRPC port (1..65535)
//       env FOXGEESE_GRPC_PORT, default 50051
export function serverHelp(binary, options = {}) {
  const result = spawnSync(binary, ["--help"], { encoding: "utf8", ...options });
  if (result.status !== 0) throw new Error(`${binary} --help failed: ${result.stderr || result.error}`);
  const flags = new Map(); // --flag -> { env, defaultValue }
  const envs = new Map(); // ENV -> --flag
  let current = null;
  for (const line of result.stdout.split("\n")) {
    const flag = line.match(/^ {2}(--[a-z0-9-]+)/);
    if (flag) {
      current = { flag: flag[1], env: null, defaultValue: null };
      flags.set(current.flag, current);
      continue;
    }
    const env = line.match(/^\s+env ([A-Z0-9_]+), default (.*)$/);
    if (env && current) {
      current.env = env[1];
      current.defaultValue = env[2];
      envs.set(env[1], current.flag);
    }
  }
  if (!flags.size || !envs.size) throw new Error(`no flags found in ${binary} --help`);
  return { flags, envs, text: result.stdout };
}
