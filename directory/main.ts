import { parsePort } from "../subgraphs/shared/env.js";
import { startDirectory } from "./server.js";
import { directoryBanner, directoryOptionsFromEnv } from "./options.js";

/** The in-process directory service alone (`npm run directory`). */
let options: ReturnType<typeof directoryOptionsFromEnv>;
let port: number;
try {
  options = directoryOptionsFromEnv(process.env);
  port = parsePort("DIRECTORY_PORT", process.env.DIRECTORY_PORT, 4010);
} catch (err) {
  console.error(`directory: configuration error: ${(err as Error).message}`);
  process.exit(2);
}
const directory = await startDirectory({ ...options, port, host: process.env.HOST || "127.0.0.1" });
console.log(directoryBanner(directory));
const stop = async () => {
  await directory.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
