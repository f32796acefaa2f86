// A replay's keys: left and right arrows step back and forth, Home and End go to the first and last step.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var rel = KEYS[event.key];
    if (!rel || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [data-hand]")) return;
    var link = document.querySelector('.replay-controls a[rel="' + rel + '"]:not([aria-disabled="true"])');
    if (!link) return;
    event.preventDefault();
    link.click();  // htmx follows it (hx-boost): the next step without a page load, its URL in the bar
  });
})();
