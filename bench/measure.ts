import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Latency, throughput and memory of a repeated async task. */

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

export interface Throughput {
  opsPerSecond: number;
  /** peak RSS and heap above the level measured (after a collection) before the runs, in MB */
  rssPeakMb: number;
  heapPeakMb: number;
  /** heap still held after the runs and a collection, in MB */
  heapAfterMb: number;
}

// a full collection before each measure makes the memory figures comparable between tasks
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export async function latency(task: () => Promise<unknown>, runs: number): Promise<Latency> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

/** `runs` executions, `concurrency` at a time. */
export async function throughput(task: () => Promise<unknown>, runs: number, concurrency: number): Promise<Throughput> {
  gc();
  const before = process.memoryUsage();
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 5);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < runs) {
      next++;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, runs) }, worker));
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  const end = process.memoryUsage();
  rssPeak = Math.max(rssPeak, end.rss);
  heapPeak = Math.max(heapPeak, end.heapUsed);
  gc();
  const after = process.memoryUsage();
  return {
    opsPerSecond: (runs / elapsed) * 1000,
    rssPeakMb: mb(rssPeak - before.rss),
    heapPeakMb: mb(heapPeak - before.heapUsed),
    heapAfterMb: mb(after.heapUsed - before.heapUsed),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

function mb(bytes: number): number {
  return bytes / (1024 * 1024);
}
