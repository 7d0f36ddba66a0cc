import { directoryPort, listenHost } from "../platform/config.js";
import { directoryBanner, directoryOptionsFromEnv } from "./options.js";
import { startDirectory, type RunningDirectory } from "./server.js";

/** The in-process directory service alone (`npm run directory`). Bad settings exit with status 2. */
let directory: RunningDirectory;
try {
  const options = directoryOptionsFromEnv(process.env);
  directory = await startDirectory({ ...options, port: directoryPort(), host: listenHost() });
} catch (err) {
  // a bad variable, or the port taken ("listen EADDRINUSE: address already in use 127.0.0.1:4010")
  console.error(`directory: cannot start: ${(err as Error).message}`);
  process.exit(2);
}
console.log(directoryBanner(directory));
const stop = async () => {
  await directory.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
