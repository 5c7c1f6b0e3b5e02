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
  // strength of a hit: generic text without its context, weak signature, plain, context confirmed
  var GENERIC = -1, WEAK = 0, PLAIN = 1, SPECIFIC = 2;
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

  /* Length in code points (Python's len). */
  function cpLength(s) {
    var n = s.length;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        var d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; }
      }
    }
    return n;
  }

  function stripCR(s) {
    return s.length && s.charCodeAt(s.length - 1) === 13 ? s.slice(0, -1) : s;
  }

  function clean(raw, prefixes, ansi, rankInMessage, maxRankDigits, embedded, embeddedMax) {
    var text = raw.indexOf("\x1b") >= 0 ? raw.replace(ansi, "") : raw;
    text = stripCR(text);
    var rank = null;
    var lookedInside = !embedded;
    for (;;) {
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
      if (rank !== null || lookedInside) break;
      lookedInside = true;
      var e = embedded.exec(text);
      // positions: embeddedMax counts code points, as Python does
      if (!e || cpLength(text.slice(0, e.index)) > embeddedMax ||
          text.slice(0, e.index).indexOf(": ") >= 0) break;
      rank = parseRank(e[1] !== undefined ? e[1] : e[2], maxRankDigits);
      text = text.slice(e.index + e[0].length);
    }
    if (rank === null) {
      var r = rankInMessage.exec(text);
      if (r) rank = parseRank(r[1], maxRankDigits);
    }
    return [rank, text];
  }

  /* engine.py time_of: the timestamp key ("MMDDhhmmssffffff") of a line, or null. */
  function timeOf(text, time, timeMax) {
    var m = time.exec(cut(text, timeMax));
    if (!m) return null;
    var month = m[1] !== undefined ? m[1] : m[3], day = m[1] !== undefined ? m[2] : m[4];
    return month + day + m[5] + m[6] + m[7] + ((m[8] || "") + "000000").slice(0, 6);
  }

  function readable(key) {
    if (key === null) return null;
    return key.slice(0, 2) + "-" + key.slice(2, 4) + " " + key.slice(4, 6) + ":" + key.slice(6, 8) +
      ":" + key.slice(8, 10) + "." + key.slice(10, 16);
  }

  /* A rank from JSON: a whole number >= 0 with at most maxDigits digits. */
  function jsonRank(value, maxDigits) {
    if (typeof value !== "number" || !isFinite(value) || value < 0 ||
        value >= Math.pow(10, maxDigits) || Math.floor(value) !== value) return null;
    return value;
  }

  function isObject(v) {
    return typeof v === "object" && v !== null && !Array.isArray(v);
  }

  /* The text of a worker's error: the traceback of its error file when raw_error is one. */
  function errorText(raw) {
    var data;
    try { data = JSON.parse(raw); } catch (err) { return raw; }
    if (!isObject(data)) return raw;
    var message = data.message;
    if (isObject(message)) {
      var extra = message.extraInfo;
      if (isObject(extra) && typeof extra.py_callstack === "string" && extra.py_callstack) {
        return extra.py_callstack;
      }
      if (typeof message.message === "string") return message.message;
      return raw;
    }
    if (typeof message === "string") return message;
    return raw;
  }

  /* [global rank, lines of raw_error] of a torchelastic event line, null if it is not one. */
  function eventOf(text, mark, limits) {
    var at = text.indexOf(mark);
    if (at < 0) return null;
    var event;
    try { event = JSON.parse(text.slice(at)); } catch (err) { return null; }
    if (!isObject(event) || !isObject(event.metadata)) return null;
    var meta = event.metadata;
    var raw = meta.raw_error;
    var lines = typeof raw === "string"
      ? errorText(raw).split("\n").slice(0, limits.max_event_lines) : [];
    return [jsonRank(meta.global_rank, limits.max_rank_digits), lines];
  }

  function re(pattern) {
    return new RegExp(pattern, "s");
  }

  function escapeRegExp(s) {
    return s.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&");
  }

  /* The regular expressions compiled from one matcher data object, shared by every Engine made
     from it: the header search builds an Engine per keystroke, and compiling the signatures
     and the needle gate anew each time fills V8's code space. Only expressions without the
     g or y flag are shared (they keep no lastIndex state). */
  var compiledCache = typeof WeakMap !== "undefined" ? new WeakMap() : null;

  function compiledFor(data) {
    var c = compiledCache && compiledCache.get(data);
    if (!c) {
      c = { patterns: new Map(), needleGate: null };
      if (compiledCache) compiledCache.set(data, c);
    }
    return c;
  }

  function Engine(data) {
    this.data = data;
    var compiled = compiledFor(data);
    function cre(pattern) {
      var r = compiled.patterns.get(pattern);
      if (!r) { r = re(pattern); compiled.patterns.set(pattern, r); }
      return r;
    }
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
    this.embedded = re(data.embedded);
    this.wrapData = data.wrap;
    this.wrapStop = new RegExp("^(?:" + data.wrap.stop + ")", "s");
    this.blank = new RegExp("^(?:" + data.blank + ")$", "s");
    this.eventMark = data.event_mark;
    this.errorLine = re(data.error_line);
    this.time = re(data.time);
    this.word = new RegExp(data.word, "gs");
    this.benign = data.benign.map(function (b) { return cre(b.pattern); });
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
          self.contexts.push(cre(c.pattern));
          index(CONTEXT, self.contexts.length - 1, c);
        }
        ctx.push(contextIndex.get(c.pattern));
      });
      index(SIGNATURE, self.sigs.length, s);
      self.sigs.push({ entry: s.entry, index: s.index, regex: cre(s.pattern), anchor: s.anchor,
                       context: ctx, window: s.window, weak: !!s.weak, generic: !!s.generic,
                       repeated: !!s.repeated });
    });
    // engine.py needle_gate: a line that holds a needle is fed with its neighbours by every
    // reader, so a message soft-wrapped over it and the next line can be joined
    if (!compiled.needleGate) {
      compiled.needleGate = new RegExp(this.needles().filter(function (n) { return n.length; })
        .map(function (n) { return n.split(" ").map(escapeRegExp).join("[ \\t]+"); })
        .join("|"), "s");
    }
    this.needleGate = compiled.needleGate;
    this.hits = new Map();
    this.pending = this.sigs.map(function () { return []; });
    this.contextHits = this.contexts.map(function () { return []; });
    this.errorLines = []; // [lineno, text] of the last unmatched error lines
    this.lastError = null; // [lineno, rank, text] of the last unmatched error line
    // lines of `repeated` signatures seen once in this file: "signature\ntext"
    this.seenOnce = new Set();
    this.lines = 0;
    this.wrap = 0;
    this.files = 0;
    this.lastTime = new Map(); // the last timestamp seen per rank, this file
    this._time = null;
    this._joined = null; // [first, last, count, last length, text]
    // engine.py _soft: [line, rank, raw, text, time, signatures tried, signatures matched]
    this._soft = null;
    this._scanner = null;
  }

  /* -- wrapped logs (engine.py: wrap_width, set_wrap) ---------------------------------- */
  Engine.prototype._continues = function (line) {
    return !this.blank.test(line) && !this.wrapStop.test(line);
  };

  Engine.prototype.wrapWidth = function (lines) {
    var w = this.wrapData;
    var sample = lines.slice(0, w.sample).map(stripCR);
    if (!sample.length) return 0;
    var lengths = sample.map(cpLength);
    var width = Math.max.apply(null, lengths);
    if (width < w.min || width > w.max) return 0;
    var at = 0, follow = 0, different = new Set();  // a repeated line (a progress bar) is no wrap
    for (var i = 0; i < sample.length; i++) {
      if (lengths[i] === width) {
        at++;
        if (i + 1 < sample.length && this._continues(sample[i + 1])) {
          follow++;
          different.add(sample[i]);
        }
      }
    }
    return different.size >= 2 && 2 * follow >= at ? width : 0;
  };

  Engine.prototype.setWrap = function (width) {  // a new file starts
    this._flush();
    this.wrap = width;
    this.files += 1;
    this.lastTime = new Map();
    this.seenOnce = new Set();
  };

  Engine.prototype._flush = function () {
    if (this._joined !== null) {
      var j = this._joined;
      this._joined = null;
      this._line(j[0], cut(j[4], this.limits.max_line));
    }
  };

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
    if (!this.wrap) {
      this._line(lineno, raw);
      return;
    }
    raw = stripCR(raw);
    var j = this._joined;
    if (j !== null && lineno === j[1] + 1 && j[2] < this.wrapData.join && j[3] === this.wrap &&
        this._continues(raw)) {
      this._joined = [j[0], lineno, j[2] + 1, cpLength(raw), j[4] + raw];
      return;
    }
    this._flush();
    this._joined = [lineno, lineno, 1, cpLength(raw), raw];
  };

  Engine.prototype._clean = function (raw) {
    return clean(raw, this.prefixes, this.ansi, this.rankInMessage, this.limits.max_rank_digits,
                 this.embedded, this.data.embedded_max);
  };

  Engine.prototype._line = function (lineno, raw) {
    var cleaned = this._clean(raw);
    var rank = cleaned[0], text = cleaned[1];
    var stamp = timeOf(raw.indexOf("\x1b") >= 0 ? raw.replace(this.ansi, "") : raw, this.time,
                       this.data.time_max);
    if (stamp !== null) {
      this.lastTime.set(rank, [stamp, lineno]);
      this._time = stamp;
    } else {
      // the last time of its rank, else of a line without rank, within time_lookback lines
      this._time = null;
      var keys = [rank, null];
      for (var k = 0; k < 2; k++) {
        var seen = this.lastTime.get(keys[k]);
        if (seen !== undefined && lineno - seen[1] <= this.data.time_lookback) {
          this._time = seen[0];
          break;
        }
      }
    }
    if (text.indexOf(this.eventMark) >= 0) {
      var event = eventOf(text, this.eventMark, this.limits);
      if (event !== null) {
        this._soft = null;
        for (var k = 0; k < event[1].length; k++) {
          var sub = this._clean(cut(event[1][k], this.limits.max_line));
          var subRank = event[0] !== null ? event[0] : sub[0] !== null ? sub[0] : rank;
          this._match(lineno, subRank, sub[1]);
        }
        return;
      }
    }
    var found = this._match(lineno, rank, text);
    var soft = this._soft;
    this._soft = null;
    if (found === null || this.wrap) return;
    if (soft !== null && (soft[5].length || found[0].length) && lineno === soft[0] + 1 &&
        rank === soft[1] && stamp === null && this._continues(text)) {
      this._softJoin(soft, raw, text, found[0]);
    }
    this._soft = [lineno, rank, raw, text, this._time, found[0], found[1]];
  };

  /* engine.py _soft_join: a message soft-wrapped at a blank, matched across the two lines. */
  Engine.prototype._softJoin = function (soft, raw, text, tried) {
    var lineno = soft[0], rank = soft[1], firstRaw = soft[2], first = soft[3], time = soft[4];
    var pool = new Set(soft[5].concat(tried));
    soft[6].forEach(function (i) { pool.delete(i); });
    if (!pool.size) return;
    var order = Array.from(pool).sort(numeric);
    var joined = first + " " + text;
    var gate = null;
    for (var k = 0; k < order.length; k++) {
      var i = order[k], sig = this.sigs[i];
      if (sig.repeated) continue;  // a start-up line is short: it is compared whole, never joined
      var m = sig.regex.exec(joined);
      if (m === null || m.index >= first.length || m.index + m[0].length <= first.length + 1) continue;
      if (gate === null) gate = this.needleGate.test(firstRaw) || this.needleGate.test(raw);
      if (!gate) return;
      if (sig.context.length) {
        if (this.pending[i].length < this.limits.max_pending) this.pending[i].push([lineno, rank, joined, time]);
      } else {
        this._record(sig, lineno, rank, joined, sig.generic ? GENERIC : sig.weak ? WEAK : PLAIN, time);
      }
    }
  };

  /* Match one cleaned line; return [signatures tried, signatures matched] (null: benign). */
  Engine.prototype._match = function (lineno, rank, text) {
    var tried = this.candidates(text);
    var matched = false;
    var sigsTried = [], sigsMatched = [];
    var t, kind, i;
    if (tried.length) {
      for (t = 0; t < tried.length; t++) {
        kind = Math.floor(tried[t] / KIND_SPAN);
        i = tried[t] % KIND_SPAN;
        if (kind === BENIGN && this.benign[i].test(text)) return null;
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
          sigsTried.push(i);
          if (sig.regex.test(text)) {
            matched = true;
            sigsMatched.push(i);
            if (sig.repeated && !this._seenTwice(i, sig, text)) continue;
            if (sig.context.length) {
              if (this.pending[i].length < this.limits.max_pending) {
                this.pending[i].push([lineno, rank, text, this._time]);
              }
            } else {
              this._record(sig, lineno, rank, text, sig.generic ? GENERIC : sig.weak ? WEAK : PLAIN,
                           this._time);
            }
          }
        }
      }
    }
    if (!matched && this.errorLine.test(text)) {
      this.lastError = [lineno, rank, text];
      this._noteError(lineno, text);
    }
    return [sigsTried, sigsMatched];
  };

  /* A `repeated` signature: true when one of its matches in the line was seen before in
     this file, this line included (engine.py _seen_twice: two processes that print the same
     rank's start-up line took the same rank; a hard-wrapped reading joins equal-width lines). */
  Engine.prototype._seenTwice = function (i, sig, text) {
    if (!sig.all) sig.all = new RegExp(sig.regex.source, sig.regex.flags + "g");
    var twice = false, m;
    sig.all.lastIndex = 0;
    while ((m = sig.all.exec(text)) !== null) {
      if (m[0] === "") { sig.all.lastIndex++; continue; }
      var key = i + "\n" + cut(m[0], this.limits.max_text);
      if (this.seenOnce.has(key)) twice = true;
      else if (this.seenOnce.size < this.limits.max_seen_once) this.seenOnce.add(key);
    }
    return twice;
  };

  Engine.prototype._noteError = function (lineno, text) {
    text = cut(text, this.limits.max_text);
    for (var k = 0; k < this.errorLines.length; k++) if (this.errorLines[k][1] === text) return;
    if (this.errorLines.length >= this.limits.max_error_lines) this.errorLines.shift();
    this.errorLines.push([lineno, text]);
  };

  Engine.prototype.feedLines = function (lines, start) {
    var n = start === undefined ? 1 : start;
    for (var k = 0; k < lines.length; k++) this.feed(n + k, lines[k]);
  };

  Engine.prototype.skipTo = function (lineno) {
    if (lineno > this.lines) this.lines = lineno;
  };

  /* engine.py needles, line_needles, context_window: what the prefilter looks for. */
  Engine.prototype.needles = function () {
    var found = new Set(["\x1b", this.eventMark]);  // an event's raw_error holds signatures too
    this.data.signatures.forEach(function (s) { found.add(s.needle); });
    return Array.from(found).sort();
  };

  Engine.prototype.lineNeedles = function () {
    return Array.from(new Set(this.data.error_needles)).sort();
  };

  Engine.prototype.contextWindow = function () {
    var w = this.data.time_lookback;
    this.data.signatures.forEach(function (s) { if (s.context.length && s.window > w) w = s.window; });
    return w;
  };

  Engine.prototype._record = function (sig, lineno, rank, text, level, time) {
    var h = this.hits.get(sig.entry);
    if (h === undefined || level > h.level) {
      if (h === undefined) {
        h = { count: 0, ranks: new Set(), evidence: [] };
        this.hits.set(sig.entry, h);
      }
      h.first_line = lineno; h.rank = rank; h.level = level; h.signature = sig.index; h.time = time;
      h.timed = null; h.untimed = false;
    } else if (level === h.level && lineno < h.first_line) {
      h.first_line = lineno; h.rank = rank; h.signature = sig.index; h.time = time;
    }
    if (level === h.level) {
      if (time === null) h.untimed = true;
      else if (h.timed === null || time < h.timed[0] || (time === h.timed[0] && lineno < h.timed[1])) {
        h.timed = [time, lineno, rank, sig.index];
      }
    }
    h.count += 1;
    if (rank !== null && h.ranks.size < this.limits.max_ranks) h.ranks.add(rank);
    text = cut(text, this.limits.max_text);
    for (var k = 0; k < h.evidence.length; k++) {  // the same text from several ranks is one line
      var e = h.evidence[k];
      if (e.text === text) {
        if (lineno < e.line) { e.line = lineno; e.rank = rank; }
        if (rank !== null && e.ranks.indexOf(rank) < 0 && e.ranks.length < this.limits.max_ranks) {
          e.ranks.push(rank);
        }
        return;
      }
    }
    if (h.evidence.length < this.limits.max_evidence) {
      h.evidence.push({ line: lineno, rank: rank, ranks: rank === null ? [] : [rank], text: text });
    }
  };

  Engine.prototype._resolvePending = function () {
    for (var i = 0; i < this.sigs.length; i++) {
      var sig = this.sigs[i];
      var pend = this.pending[i];
      for (var p = 0; p < pend.length; p++) {
        var lineno = pend[p][0], rank = pend[p][1], text = pend[p][2], time = pend[p][3];
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
            this._record(sig, lineno, rank, text, SPECIFIC, time);
            break;
          }
        }
        // a generic text without its context: a lead, not a cause
        if (c === sig.context.length && sig.generic) this._record(sig, lineno, rank, text, GENERIC, time);
      }
      this.pending[i] = [];
    }
  };

  function numeric(a, b) { return a - b; }

  /* engine.py suggestions: Dice coefficient (percent) of the words of an unmatched error
     line and of an entry's title or signature. */
  Engine.prototype.suggestions = function () {
    return similar(this.data, this.errorLines);
  };

  /* The closest entries to lines ([lineno, text]), best first: {id, title, url, score, line,
     text}. Shared by the verdict's suggestions and the header search. */
  function similar(data, lines) {
    var sug = data.suggest;
    var stop = new Set(sug.stop);
    var token = new RegExp(sug.token, "g");
    var path = new RegExp(sug.path, "g");
    var best = new Map();
    for (var k = 0; k < lines.length; k++) {
      var lineno = lines[k][0], text = lines[k][1];
      var words = new Set();
      (text.replace(path, " ").match(token) || []).forEach(function (w) {
        w = w.toLowerCase();
        if (!stop.has(w)) words.add(w);
      });
      if (!words.size) continue;
      for (var d = 0; d < sug.docs.length; d++) {
        var id = sug.docs[d][0], docs = sug.docs[d][1];
        for (var x = 0; x < docs.length; x++) {
          var doc = docs[x], common = 0;
          for (var y = 0; y < doc.length; y++) if (words.has(doc[y])) common++;
          if (common < sug.min_common) continue;
          var score = Math.floor(200 * common / (words.size + doc.length));
          var old = best.get(id);
          if (score >= sug.min_score && (old === undefined || score > old[0] ||
                                         (score === old[0] && lineno < old[1]))) {
            best.set(id, [score, lineno, text]);
          }
        }
      }
    }
    var ranked = Array.from(best.entries()).sort(function (a, b) {
      if (a[1][0] !== b[1][0]) return b[1][0] - a[1][0];
      if (a[1][1] !== b[1][1]) return a[1][1] - b[1][1];
      return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
    }).slice(0, sug.max);
    var meta = data.entries;
    return ranked.map(function (kv) {
      return { id: kv[0], title: meta[kv[0]].title, url: meta[kv[0]].url, score: kv[1][0],
               line: kv[1][1], text: kv[1][2] };
    });
  }

  /* engine.py _cut_lead: a log that ends inside a message (CUT_MIN): the one entry whose
     signature starts with the cut text is listed as a lead, never as the cause. */
  Engine.prototype._cutLead = function () {
    var data = this.data.cut;
    var last = this.lastError;
    if (last === null || this.lines - last[0] > data.slack) return;
    var tail = last[2].replace(/[ \t]+/g, " ").replace(/^ +| +$/g, "");
    var found = new Map();
    for (var k = 0; k < data.texts.length; k++) {
      var entry = data.texts[k][0], index = data.texts[k][1], lead = data.texts[k][2];
      var head = cut(lead, data.min);  // code points, as Python's lead[:min]
      var at = tail.indexOf(head);
      while (at !== -1) {
        if ((at === 0 || data.boundary.indexOf(tail.charAt(at - 1)) !== -1) &&
            lead.startsWith(tail.slice(at))) {
          if (!found.has(entry)) found.set(entry, index);
          break;
        }
        at = tail.indexOf(head, at + 1);
      }
    }
    if (found.size !== 1 || found.has("")) return;
    var hit = Array.from(found.entries())[0];
    if (this.hits.has(hit[0])) return;  // named by a whole line already
    for (var i = 0; i < this.sigs.length; i++) {
      var sig = this.sigs[i];
      if (sig.entry === hit[0] && sig.index === hit[1]) {
        this._record(sig, last[0], last[1], last[2], GENERIC, null);
        this.hits.get(hit[0]).cut = true;
        return;
      }
    }
  };

  Engine.prototype.verdict = function () {
    this._flush();
    this._resolvePending();
    this._cutLead();
    var meta = this.data.entries;
    var order = this.roleOrder;
    var byTime = this.files > 1;
    var timedGroups = new Map();
    this.hits.forEach(function (h, id) {
      // several files: the earliest hit in time, when every hit of its level has a time
      var ok = byTime && h.timed !== null && !h.untimed;
      if (ok) { h.time = h.timed[0]; h.first_line = h.timed[1]; h.rank = h.timed[2]; h.signature = h.timed[3]; }
      var group = order[meta[id].role] + "/" + h.level;
      timedGroups.set(group, (timedGroups.has(group) ? timedGroups.get(group) : true) && ok);
    });
    var ranked = Array.from(this.hits.entries());
    function cmp(x, y) { return x < y ? -1 : x > y ? 1 : 0; }
    ranked.sort(function (a, b) {
      var ra = order[meta[a[0]].role], rb = order[meta[b[0]].role];
      if (ra !== rb) return ra - rb;
      if (a[1].level !== b[1].level) return b[1].level - a[1].level;
      // several files: within a role and level, by time when every match there has one
      var ta = timedGroups.get(ra + "/" + a[1].level) ? a[1].time || "" : "";
      var tb = timedGroups.get(rb + "/" + b[1].level) ? b[1].time || "" : "";
      if (ta !== tb) return cmp(ta, tb);
      if (a[1].first_line !== b[1].first_line) return a[1].first_line - b[1].first_line;
      return cmp(a[0], b[0]);
    });
    var matches = ranked.map(function (kv) {
      var id = kv[0], h = kv[1], m = meta[id];
      var evidence = h.evidence.slice().sort(function (a, b) { return a.line - b.line; });
      evidence.forEach(function (e) { e.ranks.sort(numeric); });
      return {
        id: id,
        title: m.title,
        role: m.role,
        severity: m.severity,
        line: h.first_line,
        rank: h.rank,
        time: readable(h.time),
        ranks: Array.from(h.ranks).sort(numeric),
        specific: h.level === SPECIFIC,
        weak: h.level <= WEAK,
        generic: h.level === GENERIC,
        cut: h.cut === true,
        count: h.count,
        signature: h.signature,
        evidence: evidence,
        url: m.url,
        fix: m.fix,
        action: m.action,
        action_why: m.action_why
      };
    });
    var rootMatch = null;  // a generic text without its context names no cause
    for (var k = 0; k < matches.length; k++) {
      if (matches[k].role === this.causeRole && !matches[k].generic) { rootMatch = matches[k]; break; }
    }
    var status = rootMatch ? "root-cause-found"
      : matches.length ? "only-consequences-found" : "no-known-failure";
    return {
      status: status,
      root_cause: rootMatch ? rootMatch.id : null,
      lines: this.lines,
      matches: matches,
      suggestions: matches.length ? [] : this.suggestions()
    };
  };

  /* -- fast path: find the lines holding a needle (Aho-Corasick over UTF-16 units) ------- */
  /*
   * needles: signature needles (flag 2: the line and the window around it are fed) and line
   * needles (flag 1: the line alone). A space in a needle stands for a run of blanks (space
   * or tab) in the log, as in Python's prefilter: a blank after a blank does not move the
   * automaton, so "a b" matches "a \t b".
   */
  function Scanner(needles, lineNeedles, window) {
    var classOf = new Uint16Array(65536);
    var classes = 1; // class 0: a unit in no needle
    var goto_ = [new Map()];
    var outs = [0];
    var viaBlank = [false];  // the state is entered by a blank
    var all = needles.map(function (n) { return [n, 2]; })
      .concat(lineNeedles.map(function (n) { return [n, 1]; }));
    all.forEach(function (pair) {
      var n = pair[0], state = 0;
      for (var k = 0; k < n.length; k++) {
        var c = n.charCodeAt(k);
        if (c === 9) c = 32;
        if (!classOf[c]) classOf[c] = classes++;
        var next = goto_[state].get(classOf[c]);
        if (next === undefined) {
          next = goto_.length;
          goto_.push(new Map());
          outs.push(0);
          viaBlank.push(c === 32);
          goto_[state].set(classOf[c], next);
        }
        state = next;
      }
      if (n.length) outs[state] |= pair[1];
    });
    if (classOf[32]) classOf[9] = classOf[32];
    var states = goto_.length;
    // Uint16 when it fits: half the table, fewer cache misses per character
    var delta = states < 65536 ? new Uint16Array(states * classes) : new Int32Array(states * classes);
    var fail = new Int32Array(states);
    var out = new Uint8Array(outs);
    var queue = [];
    for (var cls = 1; cls < classes; cls++) {
      var s0 = goto_[0].get(cls);
      if (s0 !== undefined) { delta[cls] = s0; fail[s0] = 0; queue.push(s0); }
    }
    for (var q = 0; q < queue.length; q++) {
      var s = queue[q];
      out[s] |= out[fail[s]];
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
    // a blank after a blank leaves the state as it is: a space in a needle matches a run
    if (classOf[32]) {
      for (var v = 1; v < states; v++) if (viaBlank[v]) delta[v * classes + classOf[32]] = v;
    }
    this.classOf = classOf;
    this.classes = classes;
    this.delta = delta;
    this.out = out;
    this.window = window;
  }

  /*
   * Feed the lines of text that can matter as feed(offset + lineno, line); return the number
   * of lines (split on LF, a final LF starts no line). The lines fed are those holding a
   * needle, and every line within `window` lines before and after a line holding a signature
   * needle (logread.py's _Feeder): identical to feeding every line (Engine.needles).
   */
  Scanner.prototype.scan = function (text, offset, feed) {
    var classOf = this.classOf, K = this.classes, delta = this.delta, out = this.out;
    var W = this.window;
    // done: every line up to it was fed or cannot matter; alone: lines after it fed by a
    // line needle (logread.py's _Feeder)
    var n = text.length, lineno = 0, done = 0, until = 0, alone = new Set();
    var state = 0, flags = 0, lineStart = 0;
    for (var i = 0; i <= n; i++) {
      var c = i < n ? text.charCodeAt(i) : 10;
      if (c !== 10) {
        state = delta[state * K + classOf[c]];
        if (out[state]) {
          flags |= out[state];
          if (flags & 2 || !W) {  // nothing more to learn from this line: to its end
            i = text.indexOf("\n", i);
            if (i < 0) i = n;
            i -= 1;
          }
        }
        continue;
      }
      if (i === n && lineStart === n) break;  // a final LF starts no line
      var L = lineno + 1;
      if ((flags & 2) && W) {
        var first = Math.max(done + 1, L - W);
        if (first < L) {  // the lines before, within the window, not fed yet
          var starts = [];
          var p = lineStart;
          for (var k = L - 1; k >= first; k--) {
            var s = text.lastIndexOf("\n", p - 2) + 1;
            if (!alone.has(k)) starts.push([k, s, p - 1]);
            p = s;
          }
          for (var b = starts.length - 1; b >= 0; b--) {
            feed(offset + starts[b][0], text.slice(starts[b][1], starts[b][2]));
          }
        }
        done = L - 1;
        alone.clear();
        until = Math.max(until, L + W);
      }
      if (flags || L <= until) {
        feed(offset + L, text.slice(lineStart, i));
        if (L === done + 1) done = L;
        else if (W) {
          alone.add(L);
          if (alone.size > 4 * W + 64) {  // lines too far back for any window
            alone.forEach(function (a) { if (a < L - W) alone.delete(a); });
          }
        }
      }
      lineno = L;
      lineStart = i + 1;
      state = 0;
      flags = 0;
    }
    return lineno;
  };

  /* The first n lines of a log file (as splitLines), without splitting all of it. */
  function headLines(text, n) {
    var out = [], pos = 0;
    while (out.length < n && pos < text.length) {
      var nl = text.indexOf("\n", pos);
      if (nl < 0) { out.push(text.slice(pos)); break; }
      out.push(text.slice(pos, nl));
      pos = nl + 1;
    }
    return out;
  }

  /* One log file's text: the needle scan, or every line when the file is hard-wrapped
     (a message cut by the wrap may hold no whole needle); returns its number of lines. */
  Engine.prototype.scanText = function (text, offset) {
    var self = this;
    offset = offset || 0;
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // as Python drops a BOM
    this.setWrap(this.wrapWidth(headLines(text, this.wrapData.sample)));
    var lines;
    if (this.wrap) {
      var all = splitLines(text);
      this.feedLines(all, offset + 1);
      lines = all.length;
    } else {
      if (!this._scanner) {
        this._scanner = new Scanner(this.needles(), this.lineNeedles(), this.contextWindow());
      }
      lines = this._scanner.scan(text, offset, function (n, line) { self.feed(n, line); });
    }
    this.skipTo(offset + lines);
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
    var lines = text.split("\n");
    engine.setWrap(engine.wrapWidth(lines.slice(0, data.wrap.sample)));
    engine.feedLines(lines);
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
      }),
      suggestions: verdict.suggestions.map(place)
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
        engine.setWrap(engine.wrapWidth(all.slice(0, data.wrap.sample)));
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

  /* A log file's bytes as text, as generator/matching/logread.py reads them: UTF-16 when the
     file starts with its byte-order mark (Windows PowerShell's `>`), else UTF-8; invalid
     bytes become U+FFFD and the byte-order mark is dropped. */
  var UTF16_SNIFF = 64;  // logread.py is_utf16: code units after the BOM looked at, in bytes

  function decodeLog(buffer) {
    var bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
    var encoding = "utf-8";
    var le = bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe;
    var be = bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff;
    if (le || be) {  // UTF-16 when at least half the first code units have a zero high byte
      var end = Math.min(bytes.length, UTF16_SNIFF + 2);
      var pairs = Math.floor((end - 2) / 2), zeros = 0;
      for (var k = 0; k < pairs; k++) if (bytes[2 + 2 * k + (le ? 1 : 0)] === 0) zeros++;
      if (2 * zeros >= pairs) encoding = le ? "utf-16le" : "utf-16be";
    }
    return new TextDecoder(encoding).decode(bytes);
  }

  /* -- the header search: one pasted line -> entries, best first ------------------------ */
  /*
   * A reader pastes one error line into the site's search box, with the ranks, paths,
   * numbers and addresses of their own run, often cut short ("..."). searchLine ranks
   * entries for it in three tiers:
   * 1. "signature": the diagnose engine's verdict on the text (a signature matches in full);
   * 2. "prefix": the line ends inside a signature (or holds all of a signature that needs
   *    context a single line cannot give): from some point on, the line is the signature's
   *    start (holes take the run's numbers, paths and addresses, and a line may stop inside
   *    a hole) and stops after at least SEARCH.min_literal characters of the signature's
   *    literal text. The line may also start at one of the signature's first words (the
   *    "RuntimeError: " not copied) or after a ". " or ": " of its first literal text;
   * 3. "closest": no signature fits; the entries whose words the line shares most (the
   *    verdict's suggestions, text similarity, unconfirmed).
   */
  var SEARCH = {
    min_literal: 20,   // literal characters of a signature a cut line must hold
    first_words: 4,    // a line may start at one of the signature's first words
    max_starts: 8,     // or after ". " or ": " in its first literal text
    max_line: 2000,    // characters of the pasted text looked at (a longer line is cut: still a cut line)
    max_lines: 20,     // last lines of a pasted text tried for prefixes and similarity
    max_results: 5
  };
  var BLANKS = "[ \\t]+";
  var MAX_PREFIX_ATOMS = 120;  // atoms of a signature that a cut line is matched against
  // prefix patterns kept compiled at once: V8 keeps each one's native code, and a session of
  // searches (or the 213-line bench) compiling thousands of them ran out of heap (761
  // signatures, up to 8 starts each); the least recently used ones are dropped
  var MAX_COMPILED_PREFIXES = 256;
  var PARTIAL_HOLE = "[^ \\t]+(?: [^ \\t]*)?(?=[ \\t]*$)";  // the start of a hole's text, at the end
  // a cut marker at the end of a pasted line: "...", "…", "[...]", "(truncated)"
  var CUT_MARK = /(?:[ \t]*(?:\.{2,}|…|\[\.\.\.\]|\[…\]|\(truncated\)))+[ \t]*$/;

  /* A signature's pattern as its atoms: a literal character, a blank run or a hole
     (matcherdata.py builds patterns from exactly these pieces). */
  function atomsOf(pattern, holes) {
    var atoms = [], i = 0;
    outer: while (i < pattern.length) {
      for (var h = 0; h < holes.length; h++) {
        if (pattern.startsWith(holes[h], i)) {
          atoms.push({ src: holes[h], lit: 0, blank: false });
          i += holes[h].length;
          continue outer;
        }
      }
      if (pattern.startsWith(BLANKS, i)) {
        atoms.push({ src: BLANKS, lit: 0, blank: true });
        i += BLANKS.length;
      } else if (pattern.charAt(i) === "\\") {
        atoms.push({ src: pattern.substr(i, 2), lit: 1, blank: false });
        i += 2;
      } else {
        var c = pattern.charAt(i), code = pattern.charCodeAt(i);
        var n = code >= 0xd800 && code <= 0xdbff ? 2 : 1;  // one code point, astral too
        atoms.push({ src: pattern.substr(i, n), lit: c === " " ? 0 : 1, blank: false });
        i += n;
      }
    }
    return atoms;
  }

  /* A pattern that matches when the text ENDS after some first atoms of `atoms`, with an
     empty group after each atom: the last group that took part tells how far it got. */
  function prefixPattern(atoms) {
    // One capture group per atom: V8 compiles such a pattern to native code whose size grows
    // with its depth, and hundreds of long ones exhaust its code space. A line that holds the
    // first MAX_PREFIX_ATOMS atoms is a hit whatever follows (the full pattern, run by the
    // diagnose engine, decides the rest).
    var capped = atoms.length > MAX_PREFIX_ATOMS;
    if (capped) atoms = atoms.slice(0, MAX_PREFIX_ATOMS);
    var src = "";
    for (var k = atoms.length - 1; k >= 0; k--) {
      var tail = capped && k === atoms.length - 1 ? "[\\s\\S]*" : "";
      var atom = atoms[k].src + "()" + tail + (src ? "(?:" + src + ")?" : "");
      // a line may also end inside a hole: "Tried to allocate 20.00 Mi", "OpType=ALLRED"
      src = atoms[k].lit || atoms[k].blank ? atom : "(?:" + atom + "|" + PARTIAL_HOLE + ")";
    }
    return new RegExp("(?:" + src + ")[ \\t]*$", "s");
  }

  function Searcher(data) {
    this.data = data;
    var order = {};
    data.roles.forEach(function (role, i) { order[role] = i; });
    this.roleOrder = order;
    this.ansi = new RegExp(data.ansi, "gs");
    var holes = data.holes.slice().sort(function (a, b) { return b.length - a.length; });
    var self = this;
    this.items = [];
    this.literal = new Map();  // "entry#index" -> literal characters of the signature
    this.compiled = new Map();  // item -> its prefix pattern, least recently used first
    this.full = new Map();  // "entry#index" -> its full pattern, compiled when needed
    data.signatures.forEach(function (s) {
      var atoms = atomsOf(s.pattern, holes);
      self.literal.set(s.entry + "#" + s.index, atoms.reduce(function (n, a) { return n + a.lit; }, 0));
      var holesIn = atoms.filter(function (a) { return !a.lit && !a.blank; }).length;
      // where a line may start: the template's start, after each of its first words, and
      // after the end of a sentence or clause (". ", ": ") of its first literal text
      var starts = [0], words = 0;
      for (var k = 0; k < atoms.length && starts.length < SEARCH.max_starts; k++) {
        if (!atoms[k].blank) {
          if (!atoms[k].lit) break;  // not past a hole: the start must be literal text
          continue;
        }
        words++;
        var before = k > 0 ? atoms[k - 1].src : "";
        if (words < SEARCH.first_words || before === "\\." || before === ":") starts.push(k + 1);
      }
      starts.forEach(function (start) {
        var rest = atoms.slice(start);
        var total = 0, lits = [0];
        rest.forEach(function (a) { total += a.lit; lits.push(total); });
        var first = "";  // the literal text up to its first blank: a line must hold it
        for (var k = 0; k < rest.length && rest[k].lit; k++) first += rest[k].src.replace(/^\\/, "");
        if (total < SEARCH.min_literal || first.length < 3) return;
        self.items.push({ sig: s, start: start, lits: lits, first: first, rest: rest,
                          holes: holesIn });
      });
    });
  }

  /* The prefix pattern of a search item, from a bounded cache (MAX_COMPILED_PREFIXES). */
  Searcher.prototype.prefixRegex = function (item) {
    var regex = this.compiled.get(item);
    if (regex) {
      this.compiled.delete(item);  // re-inserted below: now the most recently used
    } else {
      regex = prefixPattern(item.rest);
      if (this.compiled.size >= MAX_COMPILED_PREFIXES) {
        this.compiled.delete(this.compiled.keys().next().value);
      }
    }
    this.compiled.set(item, regex);
    return regex;
  };

  /* The prefix hits of one line: [{entry, literal, at, start, sig}], one per entry. */
  Searcher.prototype.prefixes = function (line) {
    var best = new Map();
    for (var k = 0; k < this.items.length; k++) {
      var item = this.items[k];
      if (line.indexOf(item.first.slice(0, Math.min(item.first.length, 8))) < 0) continue;
      var m = this.prefixRegex(item).exec(line);
      if (!m) continue;
      var depth = 0;
      for (var g = m.length - 1; g >= 1; g--) if (m[g] !== undefined) { depth = g; break; }
      var literal = item.lits[depth];
      if (literal < SEARCH.min_literal) continue;
      var hit = { entry: item.sig.entry, literal: literal, at: m.index, start: item.start, sig: item.sig,
                  holes: item.holes,
                  complete: item.start === 0 && depth === item.rest.length };
      var old = best.get(hit.entry);
      if (!old || better(hit, old)) best.set(hit.entry, hit);
    }
    return Array.from(best.values());
  };

  /* Hits of one line, best first: more of a signature's text, then from its very start,
     then one that needs no context, then the more general signature (more holes: a line
     cut before "OpType=BROADCAST" is the general watchdog timeout before its BROADCAST
     special case). */
  function compareHits(a, b) {
    if (a.literal !== b.literal) return b.literal - a.literal;
    if (a.start !== b.start) return a.start - b.start;
    var ca = a.sig.context.length ? 1 : 0, cb = b.sig.context.length ? 1 : 0;
    if (ca !== cb) return ca - cb;  // a signature that needs no context first
    return b.holes - a.holes;
  }

  function better(a, b) {
    var c = compareHits(a, b);
    return c < 0 || (c === 0 && a.at < b.at);
  }

  var searchers = typeof WeakMap !== "undefined" ? new WeakMap() : null;

  function searcherFor(data) {
    var s = searchers && searchers.get(data);
    if (!s) {
      s = new Searcher(data);
      if (searchers) searchers.set(data, s);
    }
    return s;
  }

  /*
   * Entries for a pasted line (or a few lines), best first: [{id, title, url, role, kind,
   * rank, fix, ...}] with kind "signature" (a signature matches in full), "prefix" (the line
   * is a signature cut short) or "closest" (text similarity only: unconfirmed, with score).
   */
  function searchLine(data, query) {
    var searcher = searcherFor(data);
    var meta = data.entries;
    var order = searcher.roleOrder;
    var text = cut(String(query), SEARCH.max_line);
    var out = [], seen = new Set();
    function add(item) {
      if (seen.has(item.id) || out.length >= SEARCH.max_results) return;
      seen.add(item.id);
      var m = meta[item.id];
      item.title = m.title; item.url = m.url; item.role = m.role; item.severity = m.severity;
      item.fix = m.fix;
      out.push(item);
    }
    if (!text.trim()) return out;
    var verdict = diagnoseFiles(data, [{ name: "search", text: text }]);
    var lines = splitLines(text).slice(-SEARCH.max_lines).map(function (raw) {
      var line = raw.indexOf("\x1b") >= 0 ? raw.replace(searcher.ansi, "") : raw;
      return stripCR(line).replace(CUT_MARK, "");
    });
    var hits = [];
    lines.forEach(function (line) {
      searcher.prefixes(line).forEach(function (h) { h.line = line; hits.push(h); });
    });
    hits.sort(function (a, b) {
      var c = compareHits(a, b);
      if (c !== 0) return c;
      var ra = order[meta[a.entry].role], rb = order[meta[b.entry].role];
      if (ra !== rb) return ra - rb;
      return a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0;
    });
    function addHit(h) {
      add({ id: h.entry, kind: "prefix", complete: h.complete, rank: searcher.rankOf(h.line),
            generic: !!h.sig.generic, text: h.line });
    }
    // A signature cut short that holds more of the line's literal text than the first full
    // match's signature is the more specific one, and goes first. Not a signature that needs
    // context (its entry's author said the text alone is not enough: an ALLGATHER timeout is
    // a DDP start-up hang only beside its frame). It must start where the full match starts
    // or before: a message that quotes another one
    // ("NCCL communicator was aborted ... Original reason for failure was: [Rank 1] Watchdog
    // caught ...") is the outer message's entry.
    var top = verdict.matches.length ? verdict.matches[0] : null;
    var key = top ? top.id + "#" + top.signature : null;
    var ahead = [], rest = [];
    hits.forEach(function (hit) {
      if (!top) { ahead.push(hit); return; }
      var at = searcher.position(key, hit.line);
      (!hit.sig.context.length && hit.literal > searcher.literal.get(key) && at >= 0 && hit.at <= at
        ? ahead : rest).push(hit);
    });
    ahead.forEach(addHit);
    verdict.matches.forEach(function (m) {
      add({ id: m.id, kind: "signature", rank: m.rank, generic: m.generic, text: m.evidence[0].text });
    });
    rest.forEach(addHit);
    if (!out.length) {
      similar(data, lines.map(function (line, i) { return [i + 1, line]; })).forEach(function (sg) {
        add({ id: sg.id, kind: "closest", rank: null, score: sg.score, text: sg.text });
      });
    }
    return out;
  }

  /* Where the signature "entry#index" matches in a line in full, or -1. */
  Searcher.prototype.position = function (key, line) {
    var regex = this.full.get(key);
    if (regex === undefined) {
      var sig = this.data.signatures.filter(function (s) { return s.entry + "#" + s.index === key; })[0];
      regex = sig ? re(sig.pattern) : null;
      this.full.set(key, regex);
    }
    var m = regex ? regex.exec(line) : null;
    return m ? m.index : -1;
  };

  Searcher.prototype.rankOf = function (line) {
    if (!this.engine) this.engine = new Engine(this.data);
    return this.engine._clean(line)[0];
  };

  return {
    Engine: Engine,
    decodeLog: decodeLog,
    clean: clean,
    splitLines: splitLines,
    diagnoseText: diagnoseText,
    diagnoseFiles: diagnoseFiles,
    attributeFiles: attributeFiles,
    fileGap: fileGap,
    searchLine: searchLine,
    signatureAtoms: atomsOf
  };
});
