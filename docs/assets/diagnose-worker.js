/*
 * Web Worker for the Diagnose page: runs the diagnose engine off the main thread so a
 * 50 MB log does not freeze the page. Messages in:
 *   {id, data: <matcher.json object>, files: [{name, text} | {name, buffer: ArrayBuffer}]}
 * Messages out: {id, verdict} or {id, error}. Nothing is fetched or sent anywhere.
 */
/* global importScripts, FEDiagnose */
"use strict";
importScripts("diagnose-engine.js"); // relative to this worker's own URL

self.onmessage = function (event) {
  var msg = event.data;
  try {
    // UTF-8 or UTF-16 (by its BOM); invalid bytes -> U+FFFD, BOM dropped (as Python)
    var files = msg.files.map(function (f) {
      return { name: f.name, text: typeof f.text === "string" ? f.text : FEDiagnose.decodeLog(f.buffer) };
    });
    var started = Date.now();
    var verdict = FEDiagnose.diagnoseFiles(msg.data, files);
    self.postMessage({ id: msg.id, verdict: verdict, ms: Date.now() - started });
  } catch (err) {
    self.postMessage({ id: msg.id, error: String((err && err.message) || err) });
  }
};
