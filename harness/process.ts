import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo, type Server } from "node:net";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/**
 * The project's scripts as real child processes (`node scripts/run.mjs <script>`, what the npm
 * scripts run), for the tests of `npm start` and of each component run alone: the one way the
 * tests spawn a process. A process counts as ended on `close`, once its stdout and stderr have
 * drained, never on `exit`, which can come before the last of its output.
 */

const ROOT = fileURLToPath(new URL("../", import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ScriptProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** resolves with the first match of `pattern` in stdout; rejects if the process ends first or after `timeoutMs` (default STARTED_WITHIN_MS) */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** resolves once the process has ended and its output has drained (`close`) */
  exited: Promise<Exit>;
  /** sends `signal` to the process group (started with `group`), as a terminal's Ctrl-C or systemd's stop does */
  signalGroup(signal: NodeJS.Signals): void;
  /** sends `signal` (to the group, if started with `group`) and waits for the exit */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/**
 * How long a started process may take to say it listens: generous, because CI runs these tests
 * beside the rest on two cores, where bundling and loading a component took over 20 s. A test
 * that waits for a start has a timeout of a few times this.
 */
export const STARTED_WITHIN_MS = 90_000;

const running = new Set<ScriptProcess>();

/**
 * Starts `script` (relative to the project root, or absolute) with `env` alone beside PATH and
 * HOME, so that the test runner's own variables (LOG_LEVEL, NODE_ENV) do not leak into the process.
 */
export function runScript(script: string, env: Record<string, string>): ScriptProcess {
  return runCommand(process.execPath, ["scripts/run.mjs", script], env);
}

/**
 * `command args` in `cwd` (default the project root), with `env` alone beside PATH and HOME: `npm
 * start` itself (npm as the parent), or a component as the image runs it (node on its bundle).
 */
export function runCommand(command: string, args: string[], env: Record<string, string>, cwd = ROOT, options: { group?: boolean } = {}): ScriptProcess {
  const script = [command, ...args].join(" ");
  const child = spawn(command, args, {
    cwd,
    // its own process group, as a terminal's foreground job or a systemd unit: `signalGroup` reaches all of it
    detached: options.group ?? false,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  // `close`, not `exit`: the output is whole only once the pipes have drained
  const exited = new Promise<Exit>((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));

  const proc: ScriptProcess = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = STARTED_WITHIN_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern);
          if (!match) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${script}: no ${pattern} on stdout after ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((exit) => {
          check();
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`${script} exited (${JSON.stringify(exit)}) before ${pattern}\nstdout: ${out}\nstderr: ${err}`));
        });
        check();
      });
    },
    signalGroup(signal) {
      if (!options.group || child.pid === undefined) throw new Error(`${script} was not started in its own process group`);
      process.kill(-child.pid, signal);
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) {
        if (options.group && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      }
      return exited;
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

/** Runs `script` until it ends on its own: its exit and its whole output. */
export async function runToExit(script: string, env: Record<string, string>): Promise<{ exit: Exit; stdout: string; stderr: string }> {
  const p = runScript(script, env);
  const exit = await p.exited;
  return { exit, stdout: p.stdout(), stderr: p.stderr() };
}

/** Kills what a test left running (for afterAll). */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop("SIGKILL")));
}

/**
 * `count` distinct free loopback ports for processes to take, below the kernel's ephemeral range:
 * a port there is never handed out meanwhile to another test's `listen(0)` or to an outgoing
 * connection, in the seconds a process takes to start and bind it. Each is held by a listener
 * until all are chosen, then released.
 */
export async function freePorts(count: number): Promise<number[]> {
  const [ephemeralLow] = (await readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8").catch(() => "32768"))
    .trim()
    .split(/\s+/)
    .map(Number);
  const low = 20_000;
  const high = Math.max(low + 1000, (ephemeralLow ?? 32768) - 1);
  const servers: Server[] = [];
  try {
    while (servers.length < count) {
      const server = createServer();
      const port = low + Math.floor(Math.random() * (high - low));
      const bound = await new Promise<boolean>((resolve) => {
        server.once("error", () => resolve(false));
        server.listen(port, "127.0.0.1", () => resolve(true));
      });
      if (bound) servers.push(server);
    }
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** The JSON log lines of an output (those whose `msg` is `msg`, when given). */
export function logLines(output: string, msg?: string): Array<Record<string, unknown>> {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => msg === undefined || line.msg === msg);
}
