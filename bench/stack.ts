import type { RunningDirectory } from "../directory/server.js";
import { loadEmbeddedConfig, startEmbedded, type Embedded } from "../scripts/embedded.js";

/**
 * The embedded default of `npm start` (scripts/embedded.ts), in this process, on free ports and
 * without logs, whatever the caller's environment holds.
 */

export interface BenchStack extends Embedded {
  directory: RunningDirectory;
}

export async function startBenchStack(employees: number, today: string): Promise<BenchStack> {
  const ports = ["DIRECTORY_PORT", "GATEWAY_PORT", "PEOPLE_PORT", "ORGANISATION_PORT", "LEGACY_TIME_PORT"];
  const config = await loadEmbeddedConfig({
    ...Object.fromEntries(ports.map((name) => [name, "0"])),
    DIRECTORY_EMPLOYEES: String(employees),
    DIRECTORY_TODAY: today,
    LOG_LEVEL: "silent",
  });
  const embedded = await startEmbedded(config);
  return { ...embedded, directory: embedded.directory! };
}
