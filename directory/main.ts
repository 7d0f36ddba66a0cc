import { directoryPort, listenHost } from "../platform/config.js";
import { loadShutdownSettings, processLifecycle, stopOnSignals } from "../platform/lifecycle.js";
import { Logger, readLogLevel } from "../platform/log.js";
import { directoryBanner, directoryOptionsFromEnv } from "./options.js";
import { startDirectory, type RunningDirectory } from "./server.js";

/** The in-process directory service alone (`npm run directory`). Bad settings exit with status 2. */
let directory: RunningDirectory;
let shutdown: ReturnType<typeof loadShutdownSettings>;
let logger: Logger;
try {
  const options = directoryOptionsFromEnv(process.env);
  shutdown = loadShutdownSettings();
  logger = new Logger("directory", readLogLevel());
  directory = await startDirectory({ ...options, port: directoryPort(), host: listenHost(), lifecycle: processLifecycle, logger });
} catch (err) {
  // a bad variable, or the port taken ("listen EADDRINUSE: address already in use 127.0.0.1:4010")
  console.error(`directory: cannot start: ${(err as Error).message}`);
  process.exit(2);
}
console.log(directoryBanner(directory));
stopOnSignals({ logger, settings: shutdown, close: () => directory.close() });
