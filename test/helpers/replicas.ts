import { redisServerPath, startRedis, startReplicas, type ReplicaBed, type RunningRedis } from "../../harness/replicas.js";
import { useFixture } from "./fixture.js";

export * from "../../harness/replicas.js";

/**
 * Whether the tests that need Redis can run. Without redis-server they are skipped with a visible
 * message, except in CI (CI=true), where its absence is an error: CI installs it (.ci/run).
 */
export function redisAvailable(): boolean {
  if (redisServerPath() !== null) return true;
  const message = "redis-server is not installed: the replica tests that need Redis are SKIPPED (apt-get install redis-server)";
  if (process.env.CI) throw new Error(`${message}; CI must run them`);
  console.warn(`\n*** ${message} ***\n`);
  return false;
}

export interface ReplicasWithRedis {
  redis: RunningRedis;
  bed: ReplicaBed;
  close(): Promise<void>;
}

/** A redis-server and replicas sharing it, for the tests of a `describe` block (see useFixture). */
export function useReplicasWithRedis(options: Omit<Parameters<typeof startReplicas>[0], "redisUrl"> = {}): ReplicasWithRedis {
  return useFixture("the replicas and their Redis", async () => {
    const redis = await startRedis();
    try {
      const bed = await startReplicas({ ...options, redisUrl: redis.url });
      return {
        redis,
        bed,
        async close() {
          await bed.close();
          await redis.close();
        },
      };
    } catch (err) {
      await redis.close();
      throw err;
    }
  });
}
