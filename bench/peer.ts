import { mkdir, writeFile } from "node:fs/promises";
import { freePorts, runScript, type ScriptProcess } from "../harness/process.js";
import { directoryToken } from "../harness/stack.js";
import { composeMeshSupergraph } from "./mesh/compose.js";
import { PEER_OPERATIONS } from "./mesh/operations.js";

/**
 * The generated peer of the benchmark: a GraphQL Mesh supergraph composed at bench time from the
 * OpenAPI document of the directory the bench runs (bench/mesh/compose.ts, written under
 * bench/mesh/.generated/, which git ignores), served by Hive Gateway in its own process
 * (bench/mesh/serve.ts), and the operations a frontend sends to it (bench/mesh/operations.ts).
 */

const GENERATED = new URL("./mesh/.generated/", import.meta.url).pathname;

export interface Peer {
  process: ScriptProcess;
  url: string;
}

export async function startPeer(directory: string, env: Record<string, string>): Promise<Peer> {
  await mkdir(GENERATED, { recursive: true });
  const supergraph = `${GENERATED}supergraph.graphql`;
  await writeFile(supergraph, await composeMeshSupergraph(directory));
  const [port] = await freePorts(1);
  const proc = runScript("bench/mesh/serve.ts", {
    ...env,
    GATEWAY_PORT: String(port),
    MESH_SUPERGRAPH: supergraph,
    MESH_DIRECTORY_TOKEN: await directoryToken(directory),
  });
  const [, url] = await proc.waitFor(/bench-mesh (\S+)/, 60_000);
  return { process: proc, url: url! };
}

/** Whether the peer has a counterpart of the operation (the legacy API's have none). */
export const hasPeer = (name: string) => name in PEER_OPERATIONS;

/** The number of GraphQL requests the operation takes against the peer. */
export const peerRequests = (name: string) => PEER_OPERATIONS[name]!.requests.length;

/**
 * One operation against the peer, its requests in sequence as a frontend sends them; throws on an
 * error or a problem answered in place of data.
 */
export async function runPeer(url: string, name: string, variables: Record<string, unknown>): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const build of PEER_OPERATIONS[name]!.requests) {
    const request = build(variables, answers);
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
    const body = (await res.json()) as { data?: Record<string, any>; errors?: Array<{ message: string }> };
    if (body.errors?.length) throw new Error(`peer ${name}: ${body.errors[0]!.message}`);
    const problem = Object.entries(body.data ?? {}).find(([, v]) => v && typeof v === "object" && "problemStatus" in v);
    if (problem) throw new Error(`peer ${name}: ${problem[0]} answered ${JSON.stringify(problem[1])}`);
    answers.push(body.data);
  }
  return answers;
}
