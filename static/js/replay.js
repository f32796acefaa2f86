// A replay's keys: left and right arrows step back and forth, Home and End go to the first and last
// step. Each step is a page of its own (its URL can be shared); the page keeps its scroll from step to
// step, so the table stays where the eye is.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var SCROLL = "zerogames-replay-scroll";

  function go(href) {
    try { sessionStorage.setItem(SCROLL, String(window.scrollY)); } catch (e) { /* storage off: top */ }
    window.location.assign(href);
  }

  document.addEventListener("keydown", function (event) {
    var rel = KEYS[event.key];
    if (!rel || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [data-hand]")) return;
    var link = document.querySelector('.replay-controls a[rel="' + rel + '"]:not([aria-disabled="true"])');
    if (!link) return;
    event.preventDefault();
    go(link.href);
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".replay a[href]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go(link.href);
  });

  var kept = null;
  try { kept = sessionStorage.getItem(SCROLL); sessionStorage.removeItem(SCROLL); } catch (e) { /* none */ }
  if (kept !== null) window.scrollTo(0, parseInt(kept, 10) || 0);
})();
