/*
 * The Diagnose page (#fe-diagnose) and the home page's quick box (#fe-quick-diagnose).
 *
 * Everything runs in the browser: the only request is for the compiled signatures
 * (assets/generated/matcher.json, found relative to this script, so the site works from any
 * static host and any sub-path). The log itself never leaves the page: no fetch, no form
 * submission, no storage.
 *
 * Material's instant navigation swaps page content without reloading scripts, so mounting
 * runs on every emission of Material's document$ observable (or once on DOMContentLoaded
 * without Material).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var ASSETS = new URL(".", (script && script.src) || document.baseURI);
  var MATCHER_URL = new URL("generated/matcher.json", ASSETS).href;
  var WORKER_URL = new URL("diagnose-worker.js", ASSETS).href;
  var SITE_ROOT = new URL("..", ASSETS);
  var WORKER_MIN_CHARS = 256 * 1024; // smaller input runs on the main thread (instant)
  var EVIDENCE_SHOWN = 3;
  // each role's name and why it is listed, from matcher.json (entries/vocabulary.yaml)
  var roleWords = {};
  // the name of each next-step kind, from matcher.json (entries/vocabulary.yaml `actions`)
  var actionTitles = {};

  function nextStep(m) {
    if (!m.action) return null;
    return el("p", { class: "fe-next-step" }, [
      el("strong", { text: "Next step: " + (actionTitles[m.action] || m.action) + ". " }),
      m.action_why || ""
    ]);
  }

  function roleText(role) {
    return roleWords[role] ? roleWords[role].word : role;
  }

  function roleWhy(role) {
    var why = roleWords[role] ? roleWords[role].explanation : "";
    return why ? why.charAt(0).toUpperCase() + why.slice(1) + "." : "";
  }

  var matcher = null; // Promise of the matcher data

  function loadMatcher() {
    if (!matcher) {
      matcher = fetch(MATCHER_URL, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error("could not load the signature data (" + r.status + ")");
        return r.json();
      }).then(function (data) {
        roleWords = data.role_words || {};
        actionTitles = data.action_titles || {};
        return data;
      });
      matcher.catch(function () { matcher = null; }); // retry on the next attempt
    }
    return matcher;
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "class") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function entryUrl(m) {
    try {
      return new URL(m.url, SITE_ROOT).href;
    } catch (e) {
      return "#";
    }
  }

  /* [0, 1, 2, 3, 5] -> "0-3, 5" (generator/templating.py rank_ranges) */
  function rankRanges(ranks) {
    var parts = [];
    for (var i = 0; i < ranks.length; i++) {
      var j = i;
      while (j + 1 < ranks.length && ranks[j + 1] === ranks[j] + 1) j++;
      parts.push(i === j ? String(ranks[i]) : ranks[i] + "-" + ranks[j]);
      i = j;
    }
    return parts.join(", ");
  }

  /* A line's place; with all its ranks when identical lines of several ranks were merged. */
  function where(item, several, allRanks) {
    var s = (several && item.file ? item.file + ":" : "line ") + item.line;
    if (allRanks && item.ranks && item.ranks.length > 1) s += ", ranks " + rankRanges(item.ranks);
    else if (item.rank !== null && item.rank !== undefined) s += ", rank " + item.rank;
    if (several && item.time) s += ", at " + item.time;  // the earliest failing rank's time
    return s;
  }

  function fmtBytes(n) {
    if (n >= 1048576) return (n / 1048576).toFixed(1) + " MB";
    if (n >= 1024) return (n / 1024).toFixed(0) + " KB";
    return n + " bytes";
  }

  /* -- running the engine ------------------------------------------------------------- */
  var worker = null;
  var workerBroken = false;
  var nextId = 1;

  function runInWorker(data, files) {
    return new Promise(function (resolve, reject) {
      if (!worker) {
        try {
          worker = new Worker(WORKER_URL);
        } catch (err) { // e.g. a page opened from file:// may not start workers
          workerBroken = true;
          throw err;
        }
      }
      var id = nextId++;
      function onMessage(ev) {
        if (ev.data.id !== id) return;
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        if (ev.data.error) reject(new Error(ev.data.error));
        else resolve(ev.data.verdict);
      }
      function onError(ev) {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        if (ev && ev.preventDefault) ev.preventDefault();
        worker.terminate();
        worker = null;
        workerBroken = true;
        reject(new Error("worker failed"));
      }
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      worker.postMessage({ id: id, data: data, files: files }); // copied, not moved
    });
  }

  function runHere(data, files) {
    return window.FEDiagnose.diagnoseFiles(data, files.map(function (f) {
      return { name: f.name, text: typeof f.text === "string" ? f.text : window.FEDiagnose.decodeLog(f.buffer) };
    }));
  }

  /* files: [{name, text} | {name, buffer}] */
  function diagnose(files) {
    var size = files.reduce(function (n, f) { return n + (f.text ? f.text.length : f.buffer.byteLength); }, 0);
    return loadMatcher().then(function (data) {
      if (size < WORKER_MIN_CHARS || workerBroken || typeof Worker === "undefined") {
        return runHere(data, files);
      }
      return runInWorker(data, files).catch(function (err) {
        if (!workerBroken) throw err;
        return runHere(data, files); // e.g. file:// pages cannot start workers
      });
    });
  }

  function isGzip(buffer) {
    var b = new Uint8Array(buffer, 0, Math.min(2, buffer.byteLength));
    return b.length === 2 && b[0] === 0x1f && b[1] === 0x8b;
  }

  function readFile(file) {
    return file.arrayBuffer().then(function (buffer) {
      if (!isGzip(buffer)) return { name: file.name, buffer: buffer };
      if (typeof DecompressionStream === "undefined") {
        throw new Error(file.name + " is gzip-compressed and this browser cannot decompress it; " +
          "gunzip it first or use `python -m generator diagnose`");
      }
      var stream = new Blob([buffer]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).arrayBuffer().then(function (plain) {
        return { name: file.name, buffer: plain };
      }, function () {
        throw new Error(file.name + " is not a valid gzip file");
      });
    });
  }

  /* -- rendering a verdict ------------------------------------------------------------ */
  function matchCard(m, number, several, primary) {
    var evidence = el("pre", { class: "fe-evidence" });
    m.evidence.slice(0, EVIDENCE_SHOWN).forEach(function (e) {
      evidence.appendChild(el("span", { class: "fe-where", text: where(e, several, true) + "  " }));
      evidence.appendChild(document.createTextNode(e.text + "\n"));
    });
    var times = m.count === 1 ? "1 matching line" : m.count + " matching lines";
    return el("div", { class: "fe-match fe-role-" + m.role + (primary ? " fe-primary" : "") }, [
      el("div", { class: "fe-match-head" }, [
        el("span", { class: "fe-badge fe-badge-" + m.role, text: roleText(m.role) }),
        m.severity ? el("span", { class: "fe-badge fe-sev-" + m.severity, text: m.severity }) : null,
        el("a", { class: "fe-title", href: entryUrl(m), text: m.title })
      ]),
      el("div", { class: "fe-meta", text: "#" + number + " · " + m.id + " · first at " + where(m, several) +
        " · " + times + (m.ranks && m.ranks.length > 1 ? " · ranks " + rankRanges(m.ranks) : "") +
        (m.specific ? " · confirmed by its context" : "") +
        (m.cut ? " · the log ends inside this message" :
          m.generic ? " · generic text, without the evidence that confirms it" : "") }),
      evidence,
      primary ? nextStep(m) : null,
      m.fix ? el("p", { class: "fe-fix" }, [el("strong", { text: "Fix: " }), m.fix]) : null,
      primary ? null : el("p", { class: "fe-why", text: roleWhy(m.role) }),
      el("a", { class: "fe-more", href: entryUrl(m), text: "Full entry: mechanism, fix steps, verification →" })
    ]);
  }

  // No signature and no error line like an entry: the log is the launcher's only, or a hang.
  function noErrorLineHints() {
    function entryLink(id) {
      return el("a", { href: new URL("failures/" + id + "/", SITE_ROOT).href, text: id });
    }
    return [
      el("p", { class: "fe-hint-crash", text: "If the job crashed, its error is not in this log: " +
        "collect every rank's output, not only the launcher's (torchrun --tee 3 or --log-dir DIR, " +
        "each node's log), then drop those files here together." }),
      el("p", { class: "fe-hint-hang" }, ["If the job hung, nothing is printed until a timeout " +
        "fires. Take every rank's Python stack with py-spy dump --pid PID; rerun with " +
        "NCCL_DEBUG=INFO (how far communicator set-up got) and TORCH_DISTRIBUTED_DEBUG=DETAIL " +
        "(collective checks); pass a shorter timeout=datetime.timedelta(minutes=N) to " +
        "init_process_group so that the NCCL watchdog names the stuck collective. Then see ",
        entryLink("nccl-watchdog-timeout"), ", and ", entryLink("ddp-rank-stuck"),
        " for finding the rank that stopped."])
    ];
  }

  function renderVerdict(box, verdict, ms) {
    box.textContent = "";
    var several = verdict.files.length > 1;
    var matches = verdict.matches;
    var summary = "Read " + verdict.lines.toLocaleString() + " lines" +
      (several ? " from " + verdict.files.length + " files" : "") +
      (ms !== undefined ? " in " + (ms / 1000).toFixed(2) + " s" : "") + ", in your browser.";
    box.appendChild(el("p", { class: "fe-summary", text: summary }));
    if (!matches.length) {
      var suggestions = verdict.suggestions || [];
      box.appendChild(el("div", { class: "admonition info fe-none" }, [
        el("p", { class: "admonition-title", text: "No known failure recognised" }),
        el("p", { text: "No signature in the encyclopedia matches this log. Search the site with " +
          "the first error line, or add an entry for it (see Contributing)." })
      ].concat(suggestions.length ? [] : noErrorLineHints())));
      if (suggestions.length) {
        box.appendChild(el("h3", { text: "Closest entries (unconfirmed)" }));
        box.appendChild(el("p", { class: "fe-meta", text: "No signature matched: these entries " +
          "only share words with the log's error lines. Read an entry's confirmation checklist " +
          "before trusting it." }));
        suggestions.forEach(function (sg) {
          var line = el("pre", { class: "fe-evidence" });
          line.appendChild(el("span", { class: "fe-where", text: where(sg, several) + "  " }));
          line.appendChild(document.createTextNode(sg.text + "\n"));
          box.appendChild(el("div", { class: "fe-match fe-suggestion" }, [
            el("div", { class: "fe-match-head" }, [
              el("span", { class: "fe-badge", text: "unconfirmed · " + sg.score + "% similar" }),
              el("a", { class: "fe-title", href: entryUrl(sg), text: sg.title })
            ]),
            el("div", { class: "fe-meta", text: sg.id }),
            line
          ]));
        });
      }
      box.appendChild(jsonDetails(verdict));
      return;
    }
    var generic = verdict.status !== "root-cause-found" && matches[0].generic;
    var cutShort = generic && matches[0].cut;
    var head = verdict.status === "root-cause-found"
      ? "Root cause: " + matches[0].title
      : cutShort ? "No confirmed root cause: the log ends inside an error message"
      : generic ? "No confirmed root cause: a generic error without its evidence"
      : "No root cause in this log, only consequences";
    box.appendChild(el("h2", { class: "fe-verdict", text: head }));
    if (cutShort) {
      box.appendChild(el("p", { text: "The last error line is cut short, and the part that is " +
        "there starts only this entry's message. Paste the whole line (the full log of that " +
        "rank) to confirm it, and read the entry's confirmation checklist before acting on it." }));
    } else if (generic) {
      box.appendChild(el("p", { text: "The error below is a text that other failures print too, " +
        "and the lines that would tie it to this entry are not in the log. Read the entry's " +
        "confirmation checklist before acting on it." }));
    } else if (verdict.status !== "root-cause-found") {
      box.appendChild(el("p", { text: "The rank that failed first printed its error elsewhere: " +
        "another rank's or node's file, or before the log starts. Add all ranks' files together." }));
    }
    box.appendChild(matchCard(matches[0], 1, several, true));
    if (matches.length > 1) {
      box.appendChild(el("h3", { text: verdict.status === "root-cause-found"
        ? "Also recognised, explained by the root cause" : "Also recognised" }));
      matches.slice(1).forEach(function (m, i) { box.appendChild(matchCard(m, i + 2, several, false)); });
    }
    box.appendChild(jsonDetails(verdict));
  }

  function jsonDetails(verdict) {
    return el("details", { class: "fe-json" }, [
      el("summary", { text: "Verdict as JSON (same as python -m generator diagnose --json)" }),
      el("pre", { text: JSON.stringify(verdict, null, 2) })
    ]);
  }

  function renderError(box, err) {
    box.textContent = "";
    box.appendChild(el("div", { class: "admonition failure" }, [
      el("p", { class: "admonition-title", text: "Could not diagnose" }),
      el("p", { text: String((err && err.message) || err) })
    ]));
  }

  /* -- the Diagnose page ---------------------------------------------------------------- */
  function mountPage(root) {
    var textarea = el("textarea", {
      class: "fe-input", rows: "12", spellcheck: "false", autocomplete: "off",
      "aria-label": "Log text",
      placeholder: "Paste a log here: one error line or the whole output of all ranks."
    });
    var picker = el("input", { type: "file", multiple: "multiple", class: "fe-file",
      "aria-label": "Log files" });
    var choose = el("button", { type: "button", class: "md-button", text: "Choose log files" });
    var drop = el("div", { class: "fe-drop", tabindex: "0" }, [
      el("span", { text: "Drop log files here (one per rank or node; .gz works) or " }), choose
    ]);
    var run = el("button", { type: "button", class: "md-button md-button--primary fe-run", text: "Diagnose" });
    var clear = el("button", { type: "button", class: "md-button fe-clear", text: "Clear" });
    var status = el("p", { class: "fe-status", role: "status", "aria-live": "polite" });
    var result = el("div", { class: "fe-result" });
    root.textContent = "";
    [textarea, el("div", { class: "fe-actions" }, [run, clear]), drop, picker, status, result]
      .forEach(function (n) { root.appendChild(n); });

    var busy = false;
    function go(filesPromise, label) {
      if (busy) return;
      busy = true;
      run.disabled = true;
      status.textContent = "Diagnosing " + label + "…";
      result.textContent = "";
      var started = Date.now();
      filesPromise.then(function (files) { return diagnose(files); }).then(function (verdict) {
        status.textContent = "";
        renderVerdict(result, verdict, Date.now() - started);
      }, function (err) {
        status.textContent = "";
        renderError(result, err);
      }).then(function () {
        busy = false;
        run.disabled = false;
      });
    }

    function goFiles(list) {
      var files = Array.prototype.slice.call(list || []);
      if (!files.length) return;
      var size = files.reduce(function (n, f) { return n + f.size; }, 0);
      var label = files.length === 1 ? files[0].name : files.length + " files";
      go(Promise.all(files.map(readFile)), label + " (" + fmtBytes(size) + ")");
    }

    run.addEventListener("click", function () {
      var text = textarea.value;
      if (!text.trim()) {
        status.textContent = "Paste a log first, or drop log files.";
        return;
      }
      go(Promise.resolve([{ name: "pasted log", text: text }]), fmtBytes(text.length));
    });
    clear.addEventListener("click", function () {
      textarea.value = "";
      picker.value = "";
      result.textContent = "";
      status.textContent = "";
      textarea.focus();
    });
    choose.addEventListener("click", function () { picker.click(); });
    picker.addEventListener("change", function () { goFiles(picker.files); });
    ["dragenter", "dragover"].forEach(function (type) {
      root.addEventListener(type, function (ev) {
        ev.preventDefault();
        drop.classList.add("fe-dragging");
      });
    });
    ["dragleave", "drop"].forEach(function (type) {
      root.addEventListener(type, function () { drop.classList.remove("fe-dragging"); });
    });
    root.addEventListener("drop", function (ev) {
      ev.preventDefault();
      if (ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files.length) {
        goFiles(ev.dataTransfer.files);
      } else if (ev.dataTransfer) {
        var text = ev.dataTransfer.getData("text/plain");
        if (text) {
          textarea.value = text;
          run.click();
        }
      }
    });
  }

  /* -- the home page's quick box -------------------------------------------------------- */
  function mountQuick(root) {
    var input = el("textarea", {
      class: "fe-quick-input", rows: "2", spellcheck: "false", autocomplete: "off",
      "aria-label": "Error line",
      placeholder: "Paste an error line, e.g. torch.OutOfMemoryError: CUDA out of memory. Tried to allocate …"
    });
    var out = el("div", { class: "fe-quick-result", role: "status", "aria-live": "polite" });
    root.textContent = "";
    root.appendChild(input);
    root.appendChild(out);
    var timer = null;
    var seq = 0;
    function update() {
      var text = input.value;
      var mine = ++seq;
      if (!text.trim()) {
        out.textContent = "";
        return;
      }
      loadMatcher().then(function (data) {
        if (mine !== seq) return;
        var verdict = window.FEDiagnose.diagnoseFiles(data, [{ name: "pasted", text: text }]);
        out.textContent = "";
        var m = verdict.matches[0];
        if (!m) {
          out.appendChild(el("p", { class: "fe-quick-none", text: "No signature matches. Try the " +
            "site search, or paste the whole log on the Diagnose page." }));
          if (verdict.suggestions.length) {
            var links = [el("span", { text: "Closest entries, unconfirmed: " })];
            verdict.suggestions.forEach(function (sg, i) {
              if (i) links.push(", ");
              links.push(el("a", { href: entryUrl(sg), text: sg.title }));
            });
            out.appendChild(el("p", { class: "fe-meta" }, links));
          }
          return;
        }
        out.appendChild(el("p", { class: "fe-quick-hit" }, [
          el("span", { class: "fe-badge fe-badge-" + m.role, text: roleText(m.role) }),
          " ",
          el("a", { href: entryUrl(m), text: m.title }),
          m.rank !== null ? el("span", { class: "fe-meta", text: " · rank " + m.rank }) : null,
          m.generic ? el("span", { class: "fe-meta", text: m.cut ? " · cut short, unconfirmed"
            : " · generic text, unconfirmed" }) : null
        ]));
        if (m.fix) out.appendChild(el("p", { class: "fe-fix", text: m.fix }));
        if (verdict.matches.length > 1) {
          out.appendChild(el("p", { class: "fe-meta", text: "Also matches: " + verdict.matches.slice(1)
            .map(function (x) { return x.id; }).join(", ") }));
        }
      }, function (err) {
        if (mine !== seq) return;
        renderError(out, err);
      });
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, 120);
    });
  }

  /* -- Material's site search and pasted error lines ---------------------------------- */
  /*
   * 1. Query clean-up. Material hands the query to lunr, whose query syntax gives meaning to
   *    ":" (field), "~", "^", "*", "+", "-" and quotes: a pasted line such as
   *    "host:1234:5678 [2] ... NCCL WARN ..." fails to parse (no results at all), and words
   *    ending in ":" ("RuntimeError:") are dropped. Numbers and hex ids never match the
   *    entry's text (they differ in every log). So the query Material sends to its search
   *    worker is cleaned here; the search box keeps showing what the reader typed.
   *    (Material 9 has no query-transform hook; its worker protocol is {type: 2, data:
   *    query}. Other messages, and other workers, pass through untouched.)
   * 2. Signature matches on top. searchLine (diagnose-engine.js) runs on the search box's
   *    text: the diagnose engine's verdict, then a line that is a signature cut short
   *    ("... Watchdog caught collective operation timeout: ..."), else the closest
   *    signature by shared words (marked unconfirmed). Its first entries are put before
   *    Material's results, because a signature match is exact where word ranking is a guess.
   */
  function cleanQuery(q) {
    // words only: lunr's syntax characters become blanks, and numbers and hex ids (which
    // differ in every log) are dropped; a bare "9*" even makes lunr throw
    return q.split(/[^A-Za-z0-9\u00C0-\uFFFF]+/)
      .filter(function (t) { return t && !/^(?:[0-9]+|0x[0-9a-fA-F]+)$/.test(t); })
      .join(" ");
  }

  var QUERY = 2; // Material's SearchMessageType.QUERY
  if (typeof Worker !== "undefined" && !Worker.prototype.__feSearchClean) {
    var post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message) {
      if (message && message.type === QUERY && typeof message.data === "string" &&
          Object.keys(message).length === 2) {
        var args = Array.prototype.slice.call(arguments);
        args[0] = { type: QUERY, data: cleanQuery(message.data) };
        return post.apply(this, args);
      }
      return post.apply(this, arguments);
    };
    Worker.prototype.__feSearchClean = true;
  }

  var SEARCH_SHOWN = 3; // entries put before Material's own results

  /* The badge and the line under the title of a search result that searchLine found. */
  function searchWhy(r) {
    var where = (r.rank !== null && r.rank !== undefined ? ", rank " + r.rank : "") + ". ";
    if (r.kind === "signature") {
      return [el("span", { class: "fe-badge fe-badge-" + r.role, text: "signature match" }),
        " " + roleText(r.role) + (r.generic ? ", generic text, unconfirmed" : "") + where + (r.fix || "")];
    }
    if (r.kind === "prefix") {
      return [el("span", { class: "fe-badge fe-badge-" + r.role,
        text: r.complete ? "signature match, context not in the line" : "signature match, line cut short" }),
        " " + roleText(r.role) + (r.generic ? ", generic text, unconfirmed" : "") + where + (r.fix || "")];
    }
    return [el("span", { class: "fe-badge fe-search-closest", text: "closest signature · unconfirmed" }),
      " No signature matches this line; this entry shares " + r.score + "% of its words. " +
      "Read its confirmation checklist before trusting it."];
  }

  function mountSearch(input) {
    var cache = { text: null, results: [] };
    var pending = false;

    function results() {
      return document.querySelector(".md-search-result__list");
    }

    function searchItem(r) {
      return el("li", { class: "md-search-result__item fe-search-signature fe-search-" + r.kind,
                        "data-fe-entry": r.id }, [
        el("a", { href: entryUrl(r), class: "md-search-result__link", tabindex: "-1" }, [
          el("article", { class: "md-search-result__article md-typeset" }, [
            el("div", { class: "md-search-result__icon md-icon" }),
            el("h1", { text: r.title }),
            el("p", { class: "fe-search-why" }, searchWhy(r))
          ])
        ])
      ]);
    }

    /* Put searchLine's results first in Material's result list (again after Material
       re-renders it); the rest of the list stays Material's. */
    function place() {
      var list = results();
      if (!list) return;
      var mine = Array.prototype.slice.call(list.querySelectorAll(":scope > .fe-search-signature"));
      var wanted = input.value.trim() ? cache.results.slice(0, SEARCH_SHOWN) : [];
      var inPlace = mine.length === wanted.length && wanted.every(function (r, i) {
        return list.children[i] === mine[i] && mine[i].getAttribute("data-fe-entry") === r.id &&
          mine[i].classList.contains("fe-search-" + r.kind);
      });
      if (inPlace) return;
      mine.forEach(function (node) { node.remove(); });
      var first = list.firstElementChild;
      wanted.forEach(function (r) { list.insertBefore(searchItem(r), first); });
    }

    function update() {
      var text = input.value;
      if (text === cache.text) {
        place();
        return;
      }
      if (pending) return;
      pending = true;
      loadMatcher().then(function (data) {
        pending = false;
        var now = input.value;
        cache = { text: now, results: now.trim() ? window.FEDiagnose.searchLine(data, now) : [] };
        place();
        if (input.value !== now) update();
      }, function () {
        pending = false;
      });
    }

    var list = results();
    if (list && typeof MutationObserver !== "undefined") {
      new MutationObserver(function () { place(); }).observe(list, { childList: true });
    }
    input.addEventListener("input", update);
    input.addEventListener("keyup", update);
    input.addEventListener("focus", update);
  }

  function init() {
    var page = document.getElementById("fe-diagnose");
    if (page && !page.hasAttribute("data-fe-mounted")) {
      page.setAttribute("data-fe-mounted", "");
      mountPage(page);
    }
    var search = document.querySelector("input[data-md-component=search-query]");
    if (search && !search.hasAttribute("data-fe-mounted")) {
      search.setAttribute("data-fe-mounted", "");
      mountSearch(search);
    }
    var quick = document.getElementById("fe-quick-diagnose");
    if (quick && !quick.hasAttribute("data-fe-mounted")) {
      quick.setAttribute("data-fe-mounted", "");
      mountQuick(quick);
    }
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init); // Material: first load and every instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
