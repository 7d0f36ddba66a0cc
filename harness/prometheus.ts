import type { Counter } from "prom-client";

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for the tests and the
 * benchmark: every line must be a `# HELP`, a `# TYPE` or a sample of a declared metric; anything
 * else throws.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|[Nn][Aa][Nn]|[+-]?[Ii]nf))(?: -?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

export function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("# HELP ")) continue;
    if (line.startsWith("# TYPE ")) {
      const [name, type] = line.slice(7).split(" ");
      if (!name || !type || !TYPES.has(type)) throw new Error(`bad TYPE line: ${line}`);
      types.set(name, type);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const [, name, labelText, value] = match;
    const family = [...types.keys()].find((t) => name === t || (name!.startsWith(t) && /^_(bucket|sum|count|total|created)$/.test(name!.slice(t.length))));
    if (!family) throw new Error(`a sample of an undeclared metric: ${line}`);
    const labels: Record<string, string> = {};
    if (labelText) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < labelText.length) {
        const label = LABEL.exec(labelText);
        if (!label) throw new Error(`bad labels: ${line}`);
        labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
      }
    }
    samples.push({ name: name!, labels, value: /nan/i.test(value!) ? NaN : /inf/i.test(value!) ? (value!.startsWith("-") ? -Infinity : Infinity) : Number(value) });
  }
  return { types, samples };
}

/** the sum of the samples of `name` whose labels include `labels` */
export function sumOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);
}

/** A counter's total over the series whose labels include `labels`, read from the process's own registry. */
export async function counterValue(metric: Counter<string>, labels: Record<string, string> = {}): Promise<number> {
  const { values } = await metric.get();
  return values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x)).reduce((n, v) => n + v.value, 0);
}
