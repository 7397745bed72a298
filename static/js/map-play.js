/*
 * The map page: zoom and pan, and the tiles a chosen token may go to.
 *
 * Every part is an enhancement: without this file the map fits its box and
 * scrolls, tiles are links, the tile panel's actions are plain forms, and
 * the play page lists every choice with its terrain and who is there.
 *
 * (a) Zoom. The map sits in a scroll box (#map): dragging pans it, two
 *     fingers pinch it, the -/+ buttons, "Readable" and "Whole map" do the
 *     same from a keyboard. On a narrow screen it opens at the zoom where
 *     tile labels are readable (READABLE px tall), not squeezed to the
 *     screen's width.
 * (b) Destinations. A button with data-highlight="0203 0204" (the panel's
 *     "Choose army #1") outlines those tiles on the map; the panel opened by
 *     tapping a token's tile outlines its first token's at once.
 * (c) After an action the panel says what happened (#tile-did); the map is
 *     drawn again (htmx) and the page may be refreshed by the live poll
 *     (live.js): the zoom, the outlines and that statement are kept.
 *
 * Elements are looked up each time and listeners sit on the document, so
 * content swapped in later (htmx, live.js) is covered without re-binding.
 */
(function () {
  "use strict";
  var READABLE = 13, MIN = 1, MAX = 6, STEP = 1.4;
  var zoom = null, readable = 1, pinch = null, drag = null, marked = null, said = null;

  function wrap() { return document.getElementById("map"); }
  function controls() { return document.querySelector("[data-map-zoom]"); }
  function svg() { var w = wrap(); return w && w.querySelector("svg"); }
  function panel() { return document.getElementById("tile-panel"); }

  // The zoom (1: the map as wide as its box) at which labels are READABLE px tall.
  function readableZoom() {
    var map = svg(), w = wrap();
    var g = map && map.querySelector("g[font-size]");
    var box = map && (map.getAttribute("viewBox") || "").split(/[\s,]+/);
    var units = g ? parseFloat(g.getAttribute("font-size")) : 0;
    var width = box && box.length === 4 ? parseFloat(box[2]) : 0;
    if (!units || !width || !w.clientWidth) return 1;
    return Math.min(MAX, Math.max(MIN, READABLE * width / units / w.clientWidth));
  }

  function apply(next, anchorX, anchorY) {
    var map = svg(), w = wrap(), c = controls();
    if (!map || !w) return;
    next = Math.min(MAX, Math.max(MIN, next));
    var box = w.getBoundingClientRect(), before = map.getBoundingClientRect();
    var ax = anchorX === undefined ? box.width / 2 : anchorX - box.left;
    var ay = anchorY === undefined ? box.height / 2 : anchorY - box.top;
    var fx = (w.scrollLeft + ax) / (before.width || 1), fy = (w.scrollTop + ay) / (before.height || 1);
    zoom = next;
    map.style.width = (zoom * 100) + "%";
    w.classList.toggle("zoomed", zoom > 1.001);
    var after = map.getBoundingClientRect();
    w.scrollLeft = fx * after.width - ax;
    w.scrollTop = fy * after.height - ay;
    if (!c) return;
    c.hidden = false;
    c.querySelector("[data-zoom=out]").disabled = zoom <= MIN + 0.001;
    c.querySelector("[data-zoom=in]").disabled = zoom >= MAX - 0.001;
    var shown = c.querySelector("[data-zoom-level]");
    if (shown) shown.textContent = Math.round(zoom * 100) + "%";
  }

  // A new map (htmx) or a new page (live.js): the same zoom and place on it.
  function redraw(scroll) {
    var w = wrap();
    if (!w || !svg()) return;
    // The tile the server drew its ring on is the selected one, as after a tap.
    var ring = w.querySelector('a.tile > use[href$="-q"]');
    if (ring) ring.parentNode.classList.add("sel");
    readable = readableZoom();
    apply(zoom === null ? readable : zoom);
    if (scroll) { w.scrollLeft = scroll[0]; w.scrollTop = scroll[1]; }
  }

  function start() {
    if (!wrap() || !controls()) return;
    redraw();
    // Opened on a tile (a shared link, a reload): that tile in the middle of the box.
    var w = wrap(), selected = w.querySelector("a.tile.sel");
    if (selected) {
      var a = selected.getBoundingClientRect(), b = w.getBoundingClientRect();
      w.scrollLeft += a.left - b.left - (b.width - a.width) / 2;
      w.scrollTop += a.top - b.top - (b.height - a.height) / 2;
    }
    var first = document.querySelector("#tile-panel [data-highlight]");
    if (first) mark(first);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-map-zoom] [data-zoom]");
    if (!button) return;
    var kind = button.getAttribute("data-zoom");
    if (kind === "in") apply(zoom * STEP);
    else if (kind === "out") apply(zoom / STEP);
    else apply(kind === "fit" ? 1 : readable);
  });

  // Two fingers pinch; one finger is the scroll box's own panning.
  function onMap(event) { var w = wrap(); return w && w.contains(event.target); }
  function spread(t) { return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY); }
  document.addEventListener("touchstart", function (event) {
    if (onMap(event) && event.touches.length === 2) pinch = { distance: spread(event.touches) || 1, zoom: zoom };
  }, { passive: true });
  document.addEventListener("touchmove", function (event) {
    if (!pinch || event.touches.length !== 2) return;
    event.preventDefault();
    var t = event.touches;
    apply(pinch.zoom * spread(t) / pinch.distance, (t[0].clientX + t[1].clientX) / 2, (t[0].clientY + t[1].clientY) / 2);
  }, { passive: false });
  document.addEventListener("touchend", function (event) { if (event.touches.length < 2) pinch = null; });

  // A mouse pans by dragging too (a click on a tile still opens it).
  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "mouse" || event.button !== 0 || zoom <= 1.001 || !onMap(event)) return;
    var w = wrap();
    drag = { x: event.clientX, y: event.clientY, left: w.scrollLeft, top: w.scrollTop, moved: false };
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y, w = wrap();
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 6) return;
    drag.moved = true;
    w.scrollLeft = drag.left - dx;
    w.scrollTop = drag.top - dy;
  });
  document.addEventListener("pointerup", function () {
    if (drag && drag.moved) drag.swallow = true;
    else drag = null;
  });
  // The click that ends a drag is no tap on a tile.
  document.addEventListener("click", function (event) {
    if (drag && drag.swallow) {
      drag = null;
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // (b) Destinations.
  function note(text) {
    var p = document.getElementById("map-note");
    if (!p) return;
    p.textContent = text || "";
    p.hidden = !text;
  }
  function clearMarks() {
    var w = wrap();
    if (w) {
      w.querySelectorAll("use.dest").forEach(function (u) { u.remove(); });
      w.querySelectorAll("a.tile.dest").forEach(function (t) { t.classList.remove("dest"); });
    }
    document.querySelectorAll("[data-highlight][aria-pressed=true]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    marked = null;
    note("");
  }
  function outline(labels) {
    var w = wrap();
    labels.forEach(function (label) {
      var tile = w.querySelector('a.tile[data-tile="' + (window.CSS && CSS.escape ? CSS.escape(label) : label) + '"]');
      var shape = tile && tile.querySelector('use[href$="-t"]');
      if (!shape) return;
      // The map's own outline for it (#<map>-h, campaign/mapsvg.py), drawn on top.
      var ring = document.createElementNS("http://www.w3.org/2000/svg", "use");
      ring.setAttribute("href", shape.getAttribute("href").replace(/-t$/, "-h"));
      ring.setAttribute("class", "dest");
      tile.appendChild(ring);
      tile.classList.add("dest");
    });
  }
  function listed(labels) {
    return labels.length === 1 ? labels[0] : labels.slice(0, -1).join(", ") + " and " + labels[labels.length - 1];
  }
  function mark(button) {
    clearMarks();
    var labels = (button.getAttribute("data-highlight") || "").split(/\s+/).filter(Boolean);
    var what = button.getAttribute("data-highlight-name") || "It";
    outline(labels);
    button.setAttribute("aria-pressed", "true");
    marked = { labels: labels, key: button.getAttribute("data-highlight"), what: what };
    note(labels.length
      ? what + " may move to " + listed(labels) + ": outlined on the map with a dashed line. Tap one to move there."
      : what + " has nowhere it may move.");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-highlight]");
    if (!button) return;
    if (button.getAttribute("aria-pressed") === "true") clearMarks(); else mark(button);
  });

  // (c) What happened, kept through a refresh of the page.
  function remember() {
    var p = panel(), did = p && p.querySelector("#tile-did"), h = p && p.querySelector("h2");
    said = did ? { html: did.outerHTML, tile: h ? h.textContent : "" } : null;
  }
  function restoreSaid() {
    var p = panel(), h = p && p.querySelector("h2");
    if (!said || !h || h.textContent !== said.tile || p.querySelector("#tile-did")) return;
    var holder = document.createElement("div");
    holder.innerHTML = said.html;
    var row = h.closest(".row") || h;
    row.parentNode.insertBefore(holder.firstChild, row.nextSibling);
  }

  // The map drawn again after an action keeps the tapped tile's ring and the place it shows.
  var before = null;
  document.addEventListener("htmx:configRequest", function (event) {
    var w = wrap(), sel = w && w.querySelector("a.tile.sel");
    if (event.detail.elt === w && sel) event.detail.parameters.tile = sel.getAttribute("data-tile");
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var w = wrap();
    if (event.detail.target === w) before = [w.scrollLeft, w.scrollTop];
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target === wrap()) {
      // A new map after an action: the old outlines no longer hold.
      clearMarks();
      redraw(before);
      return;
    }
    if (target === panel()) {
      remember();
      var first = target.querySelector("[data-highlight]");
      if (first) mark(first);
      else if (said) clearMarks();
    }
  });
  var scrollBefore = null;
  document.addEventListener("scroll", function (event) {
    var w = wrap();
    if (event.target === w) scrollBefore = [w.scrollLeft, w.scrollTop];
  }, true);
  document.addEventListener("hexkeep:refreshed", function () {
    // A tile tapped while the page was being fetched again: its panel, not the old one.
    var p = panel(), shown = p && p.querySelector("[data-tile-panel]");
    var wanted = /\/map\/tiles\/([^/]+)\/$/.exec(location.pathname);
    if (p && wanted && window.htmx && (!shown || encodeURIComponent(shown.getAttribute("data-tile-panel")) !== wanted[1])) {
      htmx.ajax("GET", location.href, { source: p, target: p, swap: "innerHTML" });
    }
    var kept = marked;
    redraw(scrollBefore);
    restoreSaid();
    if (kept) {
      var again = document.querySelector('#tile-panel [data-highlight="' + kept.key + '"]');
      if (again) mark(again); else clearMarks();
    }
  });

  if (document.fonts && document.fonts.ready) document.fonts.ready.then(start); else start();
})();
