// the benchmark uses it too, so it lives in harness/
export * from "../../harness/rounds.js";
