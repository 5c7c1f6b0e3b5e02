// Time the browser's diagnose engine (docs/assets/diagnose-engine.js) under Node:
//   node bench/js_engine.js MATCHER_JSON LOG [--plain]
// Prints one JSON line: {mb, read_ms, decode_ms, scan_ms, plain_ms?, lines, root_cause,
// same}. scan = the fast path the Diagnose page uses (Aho-Corasick needle scan, engine on
// hit lines only); plain = every line through the engine (the reference).
"use strict";
const fs = require("fs");
const path = require("path");
const FEDiagnose = require(path.join(__dirname, "..", "docs", "assets", "diagnose-engine.js"));

const [matcherPath, logPath, flag] = process.argv.slice(2);
const data = JSON.parse(fs.readFileSync(matcherPath, "utf8"));
let t = process.hrtime.bigint();
const ms = () => { const now = process.hrtime.bigint(); const d = Number(now - t) / 1e6; t = now; return d; };
const bytes = fs.readFileSync(logPath);
const readMs = ms();
const text = new TextDecoder("utf-8").decode(bytes);
const decodeMs = ms();
const fast = FEDiagnose.diagnoseFiles(data, [{ name: "log", text }]);
const scanMs = ms();
const out = { mb: bytes.length / 1048576, read_ms: readMs, decode_ms: decodeMs, scan_ms: scanMs,
              lines: fast.lines, root_cause: fast.root_cause, matches: fast.matches.length,
              heap_mb: process.memoryUsage().heapUsed / 1048576 };
if (flag === "--plain") {
  const plain = FEDiagnose.diagnoseFiles(data, [{ name: "log", text }], { plain: true });
  out.plain_ms = ms();
  out.same = JSON.stringify(plain) === JSON.stringify(fast);
}
process.stdout.write(JSON.stringify(out) + "\n");
