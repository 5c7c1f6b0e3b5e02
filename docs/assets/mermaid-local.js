/*
 * Serve Mermaid from this site instead of unpkg.com.
 *
 * Material loads https://unpkg.com/mermaid@11/dist/mermaid.min.js when a page has a diagram
 * and no global `mermaid` exists. That would be a third-party request from every entry page
 * with a decision tree. This file defines a small stand-in `mermaid` whose methods load the
 * vendored copy (assets/vendor/, MIT licence) on first use and then delegate to it, so pages
 * without diagrams never download it and no page talks to another host.
 */
(function () {
  "use strict";
  if (typeof window === "undefined" || window.mermaid) return;
  var here = document.currentScript && document.currentScript.src;
  var url = new URL("vendor/mermaid-11.17.2.min.js", here || document.baseURI).href;
  var config = null;
  var loading = null;

  function load() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var shim = window.mermaid;
        var script = document.createElement("script");
        script.src = url;
        script.onload = function () {
          var real = window.mermaid;
          window.mermaid = shim;  // keep the stand-in as the global Material calls
          shim.real = real;
          if (config) real.initialize(config);
          resolve(real);
        };
        script.onerror = function () { reject(new Error("cannot load " + url)); };
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  window.mermaid = {
    real: null,
    initialize: function (options) {
      config = options;
      if (this.real) this.real.initialize(options);
    },
    render: function () {
      var args = arguments;
      return load().then(function (real) { return real.render.apply(real, args); });
    },
    run: function () {
      var args = arguments;
      return load().then(function (real) { return real.run.apply(real, args); });
    }
  };
})();
