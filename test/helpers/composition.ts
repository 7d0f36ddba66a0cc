import { composeServices } from "@apollo/composition";
import { readFile } from "node:fs/promises";
import { parse } from "graphql";
import { subgraphSdl } from "../../subgraphs/shared/graphql/federation.js";
import { loadSubgraphModule, type SubgraphName } from "./stack.js";

/**
 * Composes one subgraph's SDL, built from its code, with the committed SDL of `others`
 * (`schema/<name>.graphql`, kept in step with their code by test/schema/drift.test.ts), the way
 * `npm run compose` does. Answers the composition errors and hints as readable lines.
 */
export async function composeFromCode(name: SubgraphName, others: readonly SubgraphName[] = []): Promise<{ errors: string[]; hints: string[] }> {
  const own = await subgraphSdl(await (await loadSubgraphModule(name)).buildSchema());
  const services = [{ name, sdl: own }];
  for (const other of others) {
    services.push({ name: other, sdl: await readFile(new URL(`../../schema/${other}.graphql`, import.meta.url), "utf8") });
  }
  const result = composeServices(services.map((s) => ({ name: s.name, url: `http://${s.name}.invalid/graphql`, typeDefs: parse(s.sdl) })));
  return {
    errors: (result.errors ?? []).map((e) => e.message),
    hints: (result.hints ?? []).map((h) => `${h.definition.code}: ${h.message}`),
  };
}
