/*
 * The map page: zoom and pan, and the tiles a chosen token may go to.
 *
 * Every part is an enhancement: without this file the map fits its box and
 * scrolls, tiles are links, the tile panel's actions are plain forms, and
 * the play page lists every choice with its terrain and who is there.
 *
 * (a) Zoom. The map sits in a scroll box (.map-wrap): dragging pans it, two
 *     fingers pinch it, the +/- buttons and "Fit" do the same from a keyboard.
 *     On a narrow screen it opens at the zoom where tile labels are readable
 *     (READABLE px tall), not squeezed to the screen's width.
 * (b) Destinations. A button with data-highlight="0203 0204" (the panel's
 *     "Choose army #1") marks those tiles on the map; the panel opened by
 *     tapping a token's tile marks its first token's at once.
 */
(function () {
  "use strict";
  var READABLE = 13, MIN = 1, MAX = 6, STEP = 1.4;
  var controls = document.querySelector("[data-map-zoom]");
  var wrap = document.getElementById("map");
  if (!controls || !wrap) return;
  var zoom = 1, readable = 1;

  function svg() { return wrap.querySelector("svg"); }
  function fontUnits(map) {
    var g = map.querySelector("g[font-size]");
    return g ? parseFloat(g.getAttribute("font-size")) : 0;
  }
  function viewWidth(map) {
    var box = (map.getAttribute("viewBox") || "").split(/[\s,]+/);
    return box.length === 4 ? parseFloat(box[2]) : 0;
  }
  // The zoom (1: the map as wide as its box) at which labels are READABLE px tall.
  function readableZoom() {
    var map = svg(), units = map && fontUnits(map), width = map && viewWidth(map);
    if (!units || !width || !wrap.clientWidth) return 1;
    return Math.min(MAX, Math.max(MIN, READABLE * width / units / wrap.clientWidth));
  }
  function apply(next, anchorX, anchorY) {
    var map = svg();
    if (!map) return;
    next = Math.min(MAX, Math.max(MIN, next));
    var box = wrap.getBoundingClientRect();
    var ax = anchorX === undefined ? box.width / 2 : anchorX - box.left;
    var ay = anchorY === undefined ? box.height / 2 : anchorY - box.top;
    var oldW = map.getBoundingClientRect().width || 1, oldH = map.getBoundingClientRect().height || 1;
    var fx = (wrap.scrollLeft + ax) / oldW, fy = (wrap.scrollTop + ay) / oldH;
    zoom = next;
    map.style.width = (zoom * 100) + "%";
    wrap.classList.toggle("zoomed", zoom > 1.001);
    var rect = map.getBoundingClientRect();
    wrap.scrollLeft = fx * rect.width - ax;
    wrap.scrollTop = fy * rect.height - ay;
    controls.querySelector("[data-zoom=out]").disabled = zoom <= MIN + 0.001;
    controls.querySelector("[data-zoom=in]").disabled = zoom >= MAX - 0.001;
    var shown = controls.querySelector("[data-zoom-level]");
    if (shown) shown.textContent = Math.round(zoom * 100) + "%";
  }
  function start() {
    readable = readableZoom();
    apply(readable);
    var selected = wrap.querySelector("a.tile.sel");
    if (selected && selected.scrollIntoView) selected.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  controls.hidden = false;
  controls.addEventListener("click", function (event) {
    var button = event.target.closest("[data-zoom]");
    if (!button) return;
    var kind = button.getAttribute("data-zoom");
    if (kind === "in") apply(zoom * STEP);
    else if (kind === "out") apply(zoom / STEP);
    else apply(kind === "fit" ? 1 : readable);
  });

  // Two fingers pinch; one finger is the scroll box's own panning.
  var pinch = null;
  function spread(touches) {
    return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
  }
  wrap.addEventListener("touchstart", function (event) {
    if (event.touches.length === 2) pinch = { distance: spread(event.touches) || 1, zoom: zoom };
  }, { passive: true });
  wrap.addEventListener("touchmove", function (event) {
    if (!pinch || event.touches.length !== 2) return;
    event.preventDefault();
    var t = event.touches;
    apply(pinch.zoom * spread(t) / pinch.distance, (t[0].clientX + t[1].clientX) / 2, (t[0].clientY + t[1].clientY) / 2);
  }, { passive: false });
  wrap.addEventListener("touchend", function (event) { if (event.touches.length < 2) pinch = null; });
  // A mouse pans by dragging too (a tap or click on a tile still opens it).
  var drag = null;
  wrap.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "mouse" || event.button !== 0 || zoom <= 1.001) return;
    drag = { x: event.clientX, y: event.clientY, left: wrap.scrollLeft, top: wrap.scrollTop, moved: false };
  });
  wrap.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 6) return;
    drag.moved = true;
    wrap.scrollLeft = drag.left - dx;
    wrap.scrollTop = drag.top - dy;
  });
  document.addEventListener("pointerup", function () {
    if (drag && drag.moved) wrap.dataset.dragged = "1";
    drag = null;
  });
  // The click that ends a drag is no tap on a tile.
  wrap.addEventListener("click", function (event) {
    if (wrap.dataset.dragged) {
      delete wrap.dataset.dragged;
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // (b) Destinations.
  var note = document.getElementById("map-note");
  function clearMarks() {
    wrap.querySelectorAll("use.dest").forEach(function (u) { u.remove(); });
    wrap.querySelectorAll("a.tile.dest").forEach(function (t) { t.classList.remove("dest"); });
    document.querySelectorAll("[data-highlight][aria-pressed=true]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    if (note) { note.textContent = ""; note.hidden = true; }
  }
  function mark(button) {
    clearMarks();
    var labels = (button.getAttribute("data-highlight") || "").split(/\s+/).filter(Boolean);
    labels.forEach(function (label) {
      var tile = wrap.querySelector('a.tile[data-tile="' + (window.CSS && CSS.escape ? CSS.escape(label) : label) + '"]');
      var shape = tile && tile.querySelector('use[href$="-t"]');
      if (!shape) return;
      // The map's own outline for it (#<map>-h, campaign/mapsvg.py), drawn on top.
      var ring = document.createElementNS("http://www.w3.org/2000/svg", "use");
      ring.setAttribute("href", shape.getAttribute("href").replace(/-t$/, "-h"));
      ring.setAttribute("class", "dest");
      tile.appendChild(ring);
      tile.classList.add("dest");
    });
    button.setAttribute("aria-pressed", "true");
    if (note) {
      var what = button.getAttribute("data-highlight-name") || "It";
      note.textContent = labels.length
        ? what + " may move to " + (labels.length === 1 ? labels[0] : labels.slice(0, -1).join(", ") + " and " + labels[labels.length - 1]) + ": marked on the map with a dashed outline. Tap one to move there."
        : what + " has nowhere it may move.";
      note.hidden = false;
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-highlight]");
    if (!button) return;
    if (button.getAttribute("aria-pressed") === "true") clearMarks(); else mark(button);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target === wrap) {
      // A new map after an action: the old marks no longer hold.
      clearMarks();
      apply(zoom);
      return;
    }
    if (event.detail.target && event.detail.target.id === "tile-panel") {
      var first = event.detail.target.querySelector("[data-highlight]");
      if (first) mark(first);
    }
  });

  if (document.fonts && document.fonts.ready) document.fonts.ready.then(start); else start();
  var first = document.querySelector("#tile-panel [data-highlight]");
  if (first) mark(first);
})();
