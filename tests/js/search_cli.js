// Run the header search's ranking (diagnose-engine.js searchLine) under Node:
//   node tests/js/search_cli.js MATCHER_JSON LINES_JSON
// LINES_JSON: a JSON array of pasted lines. Prints a JSON array with, per line, the ranked
// results [{id, kind, score}] (kind: signature | prefix | closest).
//   node tests/js/search_cli.js MATCHER_JSON --atoms
// prints the signatures whose pattern does not cut into atoms that join back to it.
"use strict";
const fs = require("fs");
const path = require("path");
const FEDiagnose = require(path.join(__dirname, "..", "..", "docs", "assets", "diagnose-engine.js"));

const [matcherPath, linesPath] = process.argv.slice(2);
const data = JSON.parse(fs.readFileSync(matcherPath, "utf8"));
let out;
if (linesPath === "--atoms") {
  out = data.signatures.filter((s) => {
    const atoms = FEDiagnose.signatureAtoms(s.pattern, data.holes);
    return atoms.map((a) => a.src).join("") !== s.pattern;
  }).map((s) => `${s.entry}#${s.index}`);
} else {
  const lines = JSON.parse(fs.readFileSync(linesPath, "utf8"));
  out = lines.map((line) => FEDiagnose.searchLine(data, line).map((r) => {
    const item = { id: r.id, kind: r.kind };
    if (r.score !== undefined) item.score = r.score;
    return item;
  }));
}
process.stdout.write(JSON.stringify(out) + "\n");
