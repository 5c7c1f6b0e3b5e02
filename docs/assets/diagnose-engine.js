/*
 * The diagnose engine in JavaScript: a line-for-line port of generator/matching/engine.py.
 *
 * Same compiled data (assets/generated/matcher.json), same steps, same verdict JSON:
 * tests/test_parity*.py runs this file under Node on every test log and compares its
 * verdicts with Python's. Change both files together.
 *
 * Works in a page (window.FEDiagnose), in a Web Worker (self.FEDiagnose, via
 * importScripts) and under Node (module.exports). No I/O and no network here.
 *
 * Python/JavaScript differences handled here:
 * - regular expressions get the "s" flag: Python's "." matches everything but LF, and a
 *   line never holds an LF; JavaScript's "." would also stop at CR, U+2028 and U+2029;
 * - Python slices strings by code point, JavaScript by UTF-16 unit: cuts (MAX_TEXT,
 *   MAX_LINE) count code points;
 * - Python's re.match is anchored at the start: prefix patterns are wrapped in ^(?:...).
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.FEDiagnose = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // The limits and the roles' ranking order come from matcher.json (data.limits, data.roles),
  // written from generator/matching/engine.py and entries/vocabulary.yaml: no copies here.
  var BENIGN = 0, CONTEXT = 1, SIGNATURE = 2;
  var WEAK = 0, PLAIN = 1, SPECIFIC = 2;  // strength of a hit: weak signature, plain, context confirmed
  var KIND_SPAN = 1 << 24; // candidate code = kind * KIND_SPAN + index (sorts like (kind, index))

  /* The first n code points of s (Python's s[:n]). */
  function cut(s, n) {
    if (s.length <= n) return s; // n UTF-16 units hold at least n code points... or fewer
    var i = 0, count = 0, len = s.length;
    while (i < len && count < n) {
      var c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
        var d = s.charCodeAt(i + 1);
        i += d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
      } else {
        i += 1;
      }
      count += 1;
    }
    return s.slice(0, i);
  }

  function parseRank(digits, maxDigits) {
    return digits.length <= maxDigits ? parseInt(digits, 10) : null;
  }

  function clean(raw, prefixes, ansi, rankInMessage, maxRankDigits) {
    var text = raw.indexOf("\x1b") >= 0 ? raw.replace(ansi, "") : raw;
    if (text.length && text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    var rank = null;
    var changed = true;
    while (changed && text) {
      changed = false;
      for (var k = 0; k < prefixes.length; k++) {
        var m = prefixes[k][0].exec(text);
        if (m && m[0].length > 0) {
          var group = prefixes[k][1];
          if (group && rank === null && m[group] !== undefined) rank = parseRank(m[group], maxRankDigits);
          text = text.slice(m[0].length);
          changed = true;
          break;
        }
      }
    }
    if (rank === null) {
      var r = rankInMessage.exec(text);
      if (r) rank = parseRank(r[1], maxRankDigits);
    }
    return [rank, text];
  }

  function re(pattern) {
    return new RegExp(pattern, "s");
  }

  function Engine(data) {
    this.data = data;
    this.limits = data.limits;
    var order = {};
    data.roles.forEach(function (role, i) { order[role] = i; });
    this.roleOrder = order;
    this.causeRole = data.roles.length ? data.roles[0] : null;  // the first role is the cause
    this.prefixes = data.prefixes.map(function (p) {
      return [new RegExp("^(?:" + p[0] + ")", "s"), p[1]];
    });
    this.ansi = new RegExp(data.ansi, "gs");
    this.rankInMessage = re(data.rank_in_message);
    this.word = new RegExp(data.word, "gs");
    this.benign = data.benign.map(function (b) { return re(b.pattern); });
    this.contexts = [];
    this.sigs = [];
    this.byKey = new Map();
    this.unkeyed = []; // [anchor, kind, index]
    var self = this;
    var contextIndex = new Map();

    function index(kind, i, item) {
      if (item.key) {
        var list = self.byKey.get(item.key);
        if (!list) { list = []; self.byKey.set(item.key, list); }
        list.push(kind * KIND_SPAN + i);
      } else {
        self.unkeyed.push([item.anchor, kind, i]);
      }
    }

    data.benign.forEach(function (b, i) { index(BENIGN, i, b); });
    data.signatures.forEach(function (s) {
      var ctx = [];
      s.context.forEach(function (c) {
        if (!contextIndex.has(c.pattern)) {
          contextIndex.set(c.pattern, self.contexts.length);
          self.contexts.push(re(c.pattern));
          index(CONTEXT, self.contexts.length - 1, c);
        }
        ctx.push(contextIndex.get(c.pattern));
      });
      index(SIGNATURE, self.sigs.length, s);
      self.sigs.push({ entry: s.entry, index: s.index, regex: re(s.pattern), anchor: s.anchor,
                       context: ctx, window: s.window, weak: !!s.weak });
    });
    this.hits = new Map();
    this.pending = this.sigs.map(function () { return []; });
    this.contextHits = this.contexts.map(function () { return []; });
    this.lines = 0;
    this._scanner = null;
  }

  Engine.prototype.candidates = function (text) {
    var found = new Set();
    var words = text.match(this.word);
    if (words) {
      for (var w = 0; w < words.length; w++) {
        var hit = this.byKey.get(words[w]);
        if (hit) for (var h = 0; h < hit.length; h++) found.add(hit[h]);
      }
    }
    for (var u = 0; u < this.unkeyed.length; u++) {
      var item = this.unkeyed[u];
      if (text.indexOf(item[0]) >= 0) found.add(item[1] * KIND_SPAN + item[2]);
    }
    return Array.from(found).sort(function (a, b) { return a - b; });
  };

  Engine.prototype.feed = function (lineno, raw) {
    if (lineno > this.lines) this.lines = lineno;
    raw = cut(raw, this.limits.max_line);
    var cleaned = clean(raw, this.prefixes, this.ansi, this.rankInMessage,
                        this.limits.max_rank_digits);
    var rank = cleaned[0], text = cleaned[1];
    var tried = this.candidates(text);
    if (!tried.length) return;
    var t, kind, i;
    for (t = 0; t < tried.length; t++) {
      kind = Math.floor(tried[t] / KIND_SPAN);
      i = tried[t] % KIND_SPAN;
      if (kind === BENIGN && this.benign[i].test(text)) return;
    }
    for (t = 0; t < tried.length; t++) {
      kind = Math.floor(tried[t] / KIND_SPAN);
      i = tried[t] % KIND_SPAN;
      if (kind === CONTEXT) {
        if (this.contextHits[i].length < this.limits.max_context_hits && this.contexts[i].test(text)) {
          this.contextHits[i].push([lineno, rank]);
        }
      } else if (kind === SIGNATURE) {
        var sig = this.sigs[i];
        if (sig.regex.test(text)) {
          if (sig.context.length) {
            if (this.pending[i].length < this.limits.max_pending) this.pending[i].push([lineno, rank, text]);
          } else {
            this._record(sig, lineno, rank, text, sig.weak ? WEAK : PLAIN);
          }
        }
      }
    }
  };

  Engine.prototype.feedLines = function (lines, start) {
    var n = start === undefined ? 1 : start;
    for (var k = 0; k < lines.length; k++) this.feed(n + k, lines[k]);
  };

  Engine.prototype.skipTo = function (lineno) {
    if (lineno > this.lines) this.lines = lineno;
  };

  Engine.prototype.needles = function () {
    var found = new Set(["\x1b"]);
    this.data.signatures.forEach(function (s) {
      found.add(s.anchor);
      s.context.forEach(function (c) { found.add(c.anchor); });
    });
    return Array.from(found).sort();
  };

  Engine.prototype._record = function (sig, lineno, rank, text, level) {
    var h = this.hits.get(sig.entry);
    if (h === undefined) {
      h = { first_line: lineno, rank: rank, level: level, count: 0,
            signature: sig.index, evidence: [] };
      this.hits.set(sig.entry, h);
    } else if (level > h.level) {
      h.first_line = lineno; h.rank = rank; h.level = level; h.signature = sig.index;
    } else if (level === h.level && lineno < h.first_line) {
      h.first_line = lineno; h.rank = rank; h.signature = sig.index;
    }
    h.count += 1;
    if (h.evidence.length < this.limits.max_evidence) {
      h.evidence.push({ line: lineno, rank: rank, text: cut(text, this.limits.max_text) });
    }
  };

  Engine.prototype._resolvePending = function () {
    for (var i = 0; i < this.sigs.length; i++) {
      var sig = this.sigs[i];
      var pend = this.pending[i];
      for (var p = 0; p < pend.length; p++) {
        var lineno = pend[p][0], rank = pend[p][1], text = pend[p][2];
        for (var c = 0; c < sig.context.length; c++) {
          var hits = this.contextHits[sig.context[c]];
          var ok = false;
          for (var k = 0; k < hits.length; k++) {
            var cl = hits[k][0], cr = hits[k][1];
            if (Math.abs(cl - lineno) <= sig.window && (rank === null || cr === null || cr === rank)) {
              ok = true;
              break;
            }
          }
          if (ok) {
            this._record(sig, lineno, rank, text, SPECIFIC);
            break;
          }
        }
      }
      this.pending[i] = [];
    }
  };

  Engine.prototype.verdict = function () {
    this._resolvePending();
    var meta = this.data.entries;
    var order = this.roleOrder;
    var ranked = Array.from(this.hits.entries());
    function key(kv) {
      return [order[meta[kv[0]].role], -kv[1].level, kv[1].first_line];
    }
    ranked.sort(function (a, b) {
      var ka = key(a), kb = key(b);
      for (var k = 0; k < 3; k++) if (ka[k] !== kb[k]) return ka[k] - kb[k];
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    });
    var matches = ranked.map(function (kv) {
      var id = kv[0], h = kv[1], m = meta[id];
      var evidence = h.evidence.slice().sort(function (a, b) { return a.line - b.line; });
      return {
        id: id,
        title: m.title,
        role: m.role,
        severity: m.severity,
        line: h.first_line,
        rank: h.rank,
        specific: h.level === SPECIFIC,
        weak: h.level === WEAK,
        count: h.count,
        signature: h.signature,
        evidence: evidence,
        url: m.url,
        fix: m.fix,
        action: m.action,
        action_why: m.action_why
      };
    });
    var rootMatch = null;
    for (var k = 0; k < matches.length; k++) {
      if (matches[k].role === this.causeRole) { rootMatch = matches[k]; break; }
    }
    var status = rootMatch ? "root-cause-found"
      : matches.length ? "only-consequences-found" : "no-known-failure";
    return {
      status: status,
      root_cause: rootMatch ? rootMatch.id : null,
      lines: this.lines,
      matches: matches
    };
  };

  /* -- fast path: find the lines holding a needle (Aho-Corasick over UTF-16 units) ------- */
  function Scanner(needles) {
    var classOf = new Uint16Array(65536);
    var classes = 1; // class 0: a unit in no needle
    var goto_ = [new Map()];
    var outs = [0];
    needles.forEach(function (n) {
      var state = 0;
      for (var k = 0; k < n.length; k++) {
        var c = n.charCodeAt(k);
        if (!classOf[c]) classOf[c] = classes++;
        var next = goto_[state].get(classOf[c]);
        if (next === undefined) {
          next = goto_.length;
          goto_.push(new Map());
          outs.push(0);
          goto_[state].set(classOf[c], next);
        }
        state = next;
      }
      if (n.length) outs[state] = 1;
    });
    var states = goto_.length;
    var delta = new Int32Array(states * classes);
    var fail = new Int32Array(states);
    var out = new Uint8Array(outs);
    var queue = [];
    for (var cls = 1; cls < classes; cls++) {
      var s0 = goto_[0].get(cls);
      if (s0 !== undefined) { delta[cls] = s0; fail[s0] = 0; queue.push(s0); }
    }
    for (var q = 0; q < queue.length; q++) {
      var s = queue[q];
      if (out[fail[s]]) out[s] = 1;
      for (var c2 = 0; c2 < classes; c2++) {
        var t = goto_[s].get(c2);
        if (t !== undefined && c2 !== 0) {
          fail[t] = delta[fail[s] * classes + c2];
          delta[s * classes + c2] = t;
          queue.push(t);
        } else {
          delta[s * classes + c2] = delta[fail[s] * classes + c2];
        }
      }
    }
    this.classOf = classOf;
    this.classes = classes;
    this.delta = delta;
    this.out = out;
  }

  /*
   * Feed the lines of text that hold a needle as feed(offset + lineno, line); return the
   * number of lines (split on LF, a final LF starts no line). Identical to feeding every
   * line, because a line without a needle cannot change the verdict (Engine.needles).
   */
  Scanner.prototype.scan = function (text, offset, feed) {
    var classOf = this.classOf, K = this.classes, delta = this.delta, out = this.out;
    var n = text.length, state = 0, lineno = 0, lineStart = 0;
    for (var i = 0; i < n; i++) {
      var c = text.charCodeAt(i);
      if (c === 10) {
        lineno++;
        lineStart = i + 1;
        state = 0;
        continue;
      }
      state = delta[state * K + classOf[c]];
      if (out[state]) {
        var end = text.indexOf("\n", i);
        if (end < 0) end = n;
        feed(offset + lineno + 1, text.slice(lineStart, end));
        state = 0;
        i = end - 1; // the next round reads the LF
      }
    }
    return lineno + (lineStart < n ? 1 : 0);
  };

  Engine.prototype.scanText = function (text, offset) {
    if (!this._scanner) this._scanner = new Scanner(this.needles());
    var self = this;
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // as Python drops a BOM
    var lines = this._scanner.scan(text, offset || 0, function (n, line) { self.feed(n, line); });
    this.skipTo((offset || 0) + lines);
    return lines;
  };

  /* Lines of a log file, as generator/matching/logread.py reads them: split on LF; a final LF
     starts no line ("a\nb\n" is 2 lines, "" is none). */
  function splitLines(text) {
    var lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  /* engine.diagnose_text: every piece of text.split("\n") is a line (tests, checker). */
  function diagnoseText(data, text) {
    var engine = new Engine(data);
    engine.feedLines(text.split("\n"));
    return engine.verdict();
  }

  function fileGap(data) {
    var m = 0;
    data.signatures.forEach(function (s) { if (s.window > m) m = s.window; });
    return m + 1;
  }

  function attributeFiles(verdict, files) {
    var several = files.length > 1;
    function locate(line) {
      var found = files.length ? files[0] : { name: "", start: 0 };
      for (var k = 0; k < files.length; k++) {
        if (files[k].start < line) found = files[k]; else break;
      }
      return [found.name, line - found.start];
    }
    function place(item) {
      var loc = locate(item.line);
      var placed = {};
      Object.keys(item).forEach(function (k) { placed[k] = item[k]; });
      placed.line = loc[1];
      if (several) placed.file = loc[0];
      return placed;
    }
    var total = 0;
    files.forEach(function (f) { total += f.lines; });
    return {
      status: verdict.status,
      root_cause: verdict.root_cause,
      lines: total,
      files: files.map(function (f) { return { name: f.name, lines: f.lines }; }),
      matches: verdict.matches.map(function (m) {
        var placed = place(m);
        placed.evidence = m.evidence.map(place);
        return placed;
      })
    };
  }

  /*
   * The verdict for several logs, as `python -m generator diagnose --json` prints it.
   * files: [{name, text}], in the order given. options.plain: feed every line (slow,
   * the reference the fast path is tested against).
   */
  function diagnoseFiles(data, files, options) {
    var engine = new Engine(data);
    var gap = fileGap(data);
    var start = 0;
    var placed = [];
    files.forEach(function (f) {
      var lines;
      if (options && options.plain) {
        var text = f.text.charCodeAt(0) === 0xfeff ? f.text.slice(1) : f.text;
        var all = splitLines(text);
        engine.feedLines(all, start + 1);
        lines = all.length;
        engine.skipTo(start + lines);
      } else {
        lines = engine.scanText(f.text, start);
      }
      placed.push({ name: f.name, start: start, lines: lines });
      start += lines + gap;
    });
    return attributeFiles(engine.verdict(), placed);
  }

  return {
    Engine: Engine,
    clean: clean,
    splitLines: splitLines,
    diagnoseText: diagnoseText,
    diagnoseFiles: diagnoseFiles,
    attributeFiles: attributeFiles,
    fileGap: fileGap
  };
});
