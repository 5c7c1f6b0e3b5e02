// Run the JavaScript diagnose engine under Node, as the parity tests and bench/ do:
//   node tests/js/diagnose_cli.js MATCHER_JSON MODE FILE...
// MODE fast|plain: one verdict for all files together, as `python -m generator diagnose
// --json FILE...` prints it (fast: the Diagnose page's needle scan; plain: every line
// through the engine). each|each-plain: a JSON array, one verdict per file on its own.
// Files are read as bytes and decoded like the browser does (TextDecoder, UTF-8, invalid
// bytes replaced, BOM dropped, UTF-16 by its BOM); gzip is recognised by its magic bytes.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const FEDiagnose = require(path.join(__dirname, "..", "..", "docs", "assets", "diagnose-engine.js"));

const [matcherPath, mode, ...files] = process.argv.slice(2);
const data = JSON.parse(fs.readFileSync(matcherPath, "utf8"));
const logs = files.map((name) => {
  let bytes = fs.readFileSync(name);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
  return { name, text: FEDiagnose.decodeLog(bytes) };
});
const plain = mode === "plain" || mode === "each-plain";
const out = mode.startsWith("each")
  ? logs.map((log) => FEDiagnose.diagnoseFiles(data, [log], { plain }))
  : FEDiagnose.diagnoseFiles(data, logs, { plain });
process.stdout.write(JSON.stringify(out) + "\n");
