import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildManifest, TRUSTED_DOCUMENTS_MANIFEST } from "../gateway/trusted-documents.js";

/**
 * `npm run trusted-documents`: writes operations/trusted-documents.json, the manifest of the
 * documents in operations/ ({ "<sha256>": "<document>" }), to commit with them. `--check` fails
 * when the committed manifest is not what operations/ gives (CI runs it through its test).
 */
const manifest = `${JSON.stringify(buildManifest(), null, 2)}\n`;
const path = fileURLToPath(TRUSTED_DOCUMENTS_MANIFEST);
if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(path, "utf8");
  } catch {
    // missing: not up to date
  }
  if (committed !== manifest) {
    console.error(`${path} is not up to date with operations/: run npm run trusted-documents`);
    process.exit(1);
  }
} else {
  writeFileSync(path, manifest);
  console.log(`wrote ${path} (${Object.keys(JSON.parse(manifest)).length} documents)`);
}
