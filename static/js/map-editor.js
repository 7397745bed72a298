// The GM's map brush: each tap on a tile sends one paint request and swaps in the redrawn map.
// Without JavaScript the editor still works: tapping a tile opens its panel with a full form.
(function () {
  "use strict";

  function svgPoint(svg, event) {
    // Edge brushes need to know which side was tapped, so send the point in map units.
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest("#map.editing a.tile");
    const brushForm = document.getElementById("brush");
    if (!link || !brushForm || !window.htmx) return;
    event.preventDefault();
    event.stopPropagation();
    const choice = brushForm.querySelector("input[name=brush]:checked");
    if (!choice) return;
    const [tool, value] = choice.value.split(":");
    const values = { tile: link.dataset.tile, tool: tool, value: value || "" };
    const pending = document.getElementById("link-pending");
    if (tool === "link") {
      // Two taps: the first territory, then the one whose border with it is added or removed.
      if (!pending.dataset.first) {
        pending.dataset.first = link.dataset.tile;
        pending.textContent = "Now tap the territory to link with " + link.dataset.tile +
          " (or to unlink from it).";
        pending.hidden = false;
        return;
      }
      values.tile = pending.dataset.first;
      values.value = link.dataset.tile;
    }
    delete pending.dataset.first;
    pending.hidden = true;
    if (tool === "edge") {
      const p = svgPoint(link.ownerSVGElement, event);
      values.x = p.x.toFixed(2);
      values.y = p.y.toFixed(2);
    }
    document.getElementById("paint-error").textContent = "";
    htmx.ajax("POST", brushForm.dataset.paintUrl, {
      target: "#map", swap: "innerHTML", values: values, indicator: "#paint-indicator",
    });
  }, true);

  function brushKind(input) {
    const group = input && input.closest("fieldset[data-kind]");
    return group ? group.dataset.kind : null;
  }

  function showKind(form, kind) {
    // On a phone the toolbar shows one kind of brush (CSS, from the checked kind): the brush
    // that paints is always one on screen, so a new kind picks its first brush.
    const checked = form.querySelector("input[name=brush]:checked");
    if (brushKind(checked) === kind) return;
    const first = form.querySelector('fieldset[data-kind="' + kind + '"] input[name=brush]');
    if (first) first.checked = true;
  }

  function syncKind() {
    // A page restored with another brush checked (Back, reload) shows that brush's kind.
    const form = document.getElementById("brush");
    const kind = form && brushKind(form.querySelector("input[name=brush]:checked"));
    const radio = kind && form.querySelector('input[name=kind][value="' + kind + '"]');
    if (radio) radio.checked = true;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", syncKind);
  else syncKind();
  window.addEventListener("pageshow", syncKind);

  document.addEventListener("change", function (event) {
    const form = event.target.form;
    if (event.target.name === "kind" && form && form.id === "brush") showKind(form, event.target.value);
    // Another brush forgets a first territory tapped for a link.
    const pending = document.getElementById("link-pending");
    if ((event.target.name === "brush" || event.target.name === "kind") && pending) {
      delete pending.dataset.first;
      pending.hidden = true;
    }
  });

  document.addEventListener("htmx:responseError", function (event) {
    // A refused stroke (e.g. an unknown kingdom) leaves the map as it was and says why.
    const box = document.getElementById("paint-error");
    if (box) box.textContent = event.detail.xhr.responseText.replace(/<[^>]+>/g, "");
  });
})();
