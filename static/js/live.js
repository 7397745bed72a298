/*
 * Hexkeep - pages that follow the game (campaign/live.py). A campaign page
 * carries <div id="live" hx-get=... hx-trigger="every 4s">: htmx polls it,
 * and this file sends the version the page shows (If-None-Match). The
 * server answers 304 while nothing this viewer may read changed; on a new
 * version the page fetches itself again and swaps its campaign header and
 * <main>, keeping in place every form that has the focus or input not yet
 * sent. Without JavaScript the page is as before: a reload shows the news.
 */
(function () {
  "use strict";
  var version = null, stale = false, busy = false;

  function poller() { return document.getElementById("live"); }

  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt !== poller()) return;
    if (document.visibilityState === "hidden" || busy) { event.preventDefault(); return; }
    if (version === null) event.detail.parameters.since = poller().getAttribute("data-live-since");
    else event.detail.headers["If-None-Match"] = '"' + version + '"';
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt !== poller()) return;
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 200) { if (stale) refresh(); return; }
    var next = xhr.getResponseHeader("X-Live-Version");
    var changed = version === null ? xhr.getResponseHeader("X-Live-Changed") === "1" : next !== version;
    version = next;
    if (changed || stale) refresh();
  });

  // A form is in use when it holds the focus or a value differs from the page's.
  function inUse(form) {
    var active = document.activeElement;
    if (active && active !== document.body && form.contains(active) && active.matches("input, select, textarea")) return true;
    return Array.prototype.some.call(form.elements, function (f) {
      if (f.type === "checkbox" || f.type === "radio") return f.checked !== f.defaultChecked;
      if (f.tagName === "SELECT") return Array.prototype.some.call(f.options, function (o) { return o.selected !== o.defaultSelected; });
      if (f.type === "hidden" || f.type === "submit" || f.type === "button" || f.type === "reset") return false;
      return "defaultValue" in f && f.value !== f.defaultValue;
    });
  }

  // Forms by a key that finds the same form in the new page: its id, else its
  // action with its place among the forms of that action.
  function formsByKey(root) {
    var seen = {}, keyed = {};
    root.querySelectorAll("form").forEach(function (form) {
      var key = form.id ? "#" + form.id : (form.getAttribute("action") || form.getAttribute("hx-post") || "") + "|";
      if (!form.id) { seen[key] = (seen[key] || 0) + 1; key += seen[key]; }
      keyed[key] = form;
    });
    return keyed;
  }

  function note(show) {
    var p = document.getElementById("live-note");
    if (p) p.hidden = !show;
  }

  // Walk the old and the new region together: a subtree without a form in use is replaced by
  // the new one; one holding such a form is entered, and the form itself is left where it is
  // (moving it would take its focus away). Only where both pages have the same shape down to
  // each such form (the same tags and the same number of children on the way, and the same form
  // there), so the dry run says first whether the swap can be made.
  function walk(oldNode, newNode, keep, apply) {
    if (keep.indexOf(oldNode) >= 0) return newNode.nodeName === "FORM";
    var holds = keep.some(function (form) { return oldNode.contains(form); });
    if (!holds) { if (apply) oldNode.replaceWith(newNode); return true; }
    if (oldNode.nodeName !== newNode.nodeName) return false;
    var olds = Array.prototype.slice.call(oldNode.childNodes), news = Array.prototype.slice.call(newNode.childNodes);
    if (olds.length !== news.length) return false;
    for (var i = 0; i < olds.length; i++) if (!walk(olds[i], news[i], keep, apply)) return false;
    return true;
  }

  function refresh() {
    var main = document.getElementById("main"), header = document.querySelector(".campaign-header");
    if (!main || busy) return;
    busy = true;
    fetch(location.href, { credentials: "same-origin", cache: "no-store", headers: { "X-Live-Refresh": "1" } })
      .then(function (response) { return response.ok && !response.redirected ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var newMain = doc.getElementById("main"), newHeader = doc.querySelector(".campaign-header");
        if (!newMain) return;
        var old = formsByKey(main), fresh = formsByKey(newMain), keep = [];
        for (var key in old) {
          if (!inUse(old[key])) continue;
          if (!fresh[key]) { stale = true; note(true); return; } // wait until it is sent or cleared
          keep.push(old[key]);
        }
        if (!walk(main, newMain, keep, false)) { stale = true; note(true); return; }
        if (header && newHeader) {
          // The poller and its note stay: htmx keeps polling the element it knows.
          ["live", "live-note"].forEach(function (id) {
            var mine = document.getElementById(id), theirs = newHeader.querySelector("#" + id);
            if (mine && theirs) theirs.replaceWith(mine);
          });
          header.replaceChildren.apply(header, Array.prototype.slice.call(newHeader.childNodes));
          htmx.process(header);
        }
        if (keep.length) walk(main, newMain, keep, true);
        else main.replaceChildren.apply(main, Array.prototype.slice.call(newMain.childNodes));
        htmx.process(main);
        stale = false;
        note(false);
        document.dispatchEvent(new CustomEvent("hexkeep:refreshed", { detail: { root: main } }));
      })
      .catch(function () { stale = true; })
      .then(function () { busy = false; });
  }
})();
