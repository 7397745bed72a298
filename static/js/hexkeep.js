/*
 * Hexkeep - progressive enhancement. Every page works without this file:
 * tile links navigate, forms submit, invitation links can be copied by hand.
 * Load with `defer` after htmx.min.js. Listeners sit on the document, so
 * content that htmx swaps in later is covered without re-binding.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js"); // CSS hides [data-copy] without us
  function closest(event, selector) { return event.target.closest && event.target.closest(selector); }

  // Phones cannot show every campaign tab: scroll the current one into sight,
  // once the web font is in (it changes the tabs' widths).
  var tabs = document.querySelector("nav.tabs"), current = tabs && tabs.querySelector("[aria-current=page]");
  if (current) (document.fonts ? document.fonts.ready : Promise.resolve()).then(function () {
    var overflow = current.getBoundingClientRect().right - tabs.getBoundingClientRect().right;
    if (overflow > 0) tabs.scrollLeft += overflow + 16;
  });

  // The campaign tabs' "More" menu (a <details>, which works without us): Escape closes it and
  // puts the focus back on "More"; a tap or a focus elsewhere closes it too.
  var more = document.getElementById("tabs-more");
  if (more) {
    more.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && more.open) { more.open = false; more.querySelector("summary").focus(); }
    });
    document.addEventListener("click", function (event) { if (more.open && !more.contains(event.target)) more.open = false; });
    document.addEventListener("focusin", function (event) { if (more.open && !more.contains(event.target)) more.open = false; });
  }

  // (a) Map tiles. A page load per tap is slow on a phone at the table, so a
  // tile inside [data-panel-target] is loaded into that panel instead.
  document.addEventListener("click", function (event) {
    var link = closest(event, "svg a.tile"), host = link && link.closest("[data-panel-target]");
    var panel = host && document.querySelector(host.getAttribute("data-panel-target"));
    var href = link && (link.getAttribute("href") || link.getAttribute("xlink:href"));
    // Without htmx, or for Ctrl/Cmd/Shift/middle clicks, the link just navigates.
    if (!window.htmx || !panel || !href || event.button || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    host.querySelectorAll("a.tile.sel").forEach(function (t) { t.classList.remove("sel"); });
    link.classList.add("sel");
    // The map draws the selection as <use href="#<map>-q"> in tile-local
    // coordinates (campaign/mapsvg.py): move it, or make it from the id of
    // the tile's own shape (#<map>-t). Last child, so drawn on top.
    var ring = host.querySelector('a.tile > use[href$="-q"]'), shape = link.querySelector('use[href$="-t"]');
    var ringId = shape && shape.getAttribute("href").replace(/-t$/, "-q");
    if (!ring && ringId && host.querySelector(ringId)) {
      ring = document.createElementNS("http://www.w3.org/2000/svg", "use");
      ring.setAttribute("href", ringId);
    }
    if (ring) link.appendChild(ring);
    // Replace, not push: ten tapped tiles should not cost ten Back presses,
    // yet a reload or a shared URL still opens on this tile.
    history.replaceState(history.state, "", new URL(href, location.href).href);
    // The panel is the request source, so htmx queues rapid taps on it (the
    // last one wins) and the panel gets .htmx-request while loading.
    htmx.ajax("GET", href, { source: panel, target: panel, swap: "innerHTML" }).then(function () {
      // On a phone the panel sits below the map: bring it up if out of sight.
      if (panel.getBoundingClientRect().top > window.innerHeight) panel.scrollIntoView({ block: "nearest" });
    });
  });
  document.addEventListener("keydown", function (event) {
    // Not every browser "clicks" an SVG link on Enter: send a click at the
    // tile's centre so every click handler (ours, the map editor's) serves
    // keyboard users too. If none takes it, the link navigates.
    var tile = event.key === "Enter" && closest(event, "svg a.tile"), box = tile && tile.getBoundingClientRect();
    if (tile && !tile.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true,
      clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }))) event.preventDefault();
  });

  // (b) Confirmation. Capture phase, so a refusal also stops htmx handlers
  // on the element itself (hx-post buttons and forms) before they run.
  function confirmOrStop(event, element) {
    if (element && !window.confirm(element.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopPropagation();
    }
  }
  document.addEventListener("click", function (event) {
    confirmOrStop(event, closest(event, "button[data-confirm], input[data-confirm], a[data-confirm]"));
  }, true);
  document.addEventListener("submit", function (event) {
    // Already asked by its button (a click, or Enter in a field): skip.
    if (!(event.submitter && event.submitter.hasAttribute("data-confirm"))) confirmOrStop(event, event.target.closest("form[data-confirm]"));
  }, true);

  // (c) Copy buttons: data-copy="#invite-url" copies that element's text.
  function copyText(text) {
    if (window.isSecureContext && navigator.clipboard) return navigator.clipboard.writeText(text);
    // No Clipboard API over plain HTTP (a laptop serving the table on the
    // LAN): copy a selection instead, added and removed before any repaint.
    var area = document.body.appendChild(document.createElement("textarea"));
    area.value = text;
    area.select();
    var ok = document.execCommand("copy");
    area.remove();
    return ok ? Promise.resolve() : Promise.reject();
  }
  document.addEventListener("click", function (event) {
    var button = closest(event, "[data-copy]"), source = button && document.querySelector(button.getAttribute("data-copy"));
    if (!source) return;
    copyText(source.matches("input, textarea") ? source.value : source.textContent.trim()).then(function () {
      if (!button.dataset.label) button.dataset.label = button.textContent;
      button.textContent = "Copied";
      clearTimeout(button.copyTimer);
      button.copyTimer = setTimeout(function () { button.textContent = button.dataset.label; }, 2000);
    }, function () {
      if (source.select) source.select(); // let the player copy it by hand
    });
    button.focus(); // the fallback's selection moved it away
  });

  // (d) A refused htmx action (a 4xx with its reason) is not swapped by htmx by default: show
  // the reason next to what was tapped (the form's [data-refusal] slot, made if missing) and
  // leave the rest of the page as it was, since nothing changed.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var d = event.detail, elt = d.requestConfig && d.requestConfig.elt;
    if (!d.isError || d.xhr.status < 400 || d.xhr.status >= 500 || !elt || !elt.closest) return;
    if (elt.closest("[data-conflict-target]")) return; // pages with their own handling (e)
    var form = elt.closest("form") || elt;
    var slot = form.querySelector && form.querySelector("[data-refusal]");
    if (!slot) {
      slot = document.createElement("p");
      slot.className = "error";
      slot.setAttribute("role", "alert");
      slot.setAttribute("data-refusal", "");
      form.appendChild(slot);
    }
    d.shouldSwap = true;
    d.isError = false;
    d.target = slot;
    d.swapOverride = "innerHTML";
  });

  // (e) A region with data-conflict-target="#id" shows a 409 or 403 answer (someone else
  // acted first, or the action is no longer yours) in that element instead.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var d = event.detail, elt = d.requestConfig && d.requestConfig.elt;
    var host = elt && elt.closest && elt.closest("[data-conflict-target]");
    var status = d.xhr && d.xhr.status;
    if (!host || (status !== 409 && status !== 403)) return;
    d.shouldSwap = true;
    d.isError = false;
    d.target = document.querySelector(host.getAttribute("data-conflict-target"));
  });

  // (f) Colour swatches: data-c="#rrggbb" becomes the swatch's --c. Our Content-Security-Policy
  // refuses style attributes in the markup; a colour set from here is allowed.
  var COLOUR = /^#[0-9a-fA-F]{3,8}$/;
  function paint(root) {
    if (!root || !root.querySelectorAll) return;
    var found = root.matches && root.matches("[data-c]") ? [root] : [];
    root.querySelectorAll("[data-c]").forEach(function (el) { found.push(el); });
    found.forEach(function (el) {
      var c = el.getAttribute("data-c");
      if (COLOUR.test(c)) el.style.setProperty("--c", c);
    });
  }
  paint(document);
  document.addEventListener("htmx:load", function (event) { paint(event.target); });
  document.addEventListener("hexkeep:refreshed", function (event) { paint(document); });

  // (g) "Go back" links (data-back) go back in the browser's history when there is one.
  document.addEventListener("click", function (event) {
    var link = closest(event, "a[data-back]");
    if (link && history.length > 1 && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      history.back();
    }
  });
})();
