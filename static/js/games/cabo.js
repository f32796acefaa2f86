// Cabo's table: a seen card turns back at the second it is due (the server stops sending it then too),
// and the two-card picks (the opening peek, a power's swap) fill their button's action.
(function () {
  "use strict";

  var picked = { peek: [], swap: [] };

  // data-left: seconds the card stays in sight, as of when the region was drawn.
  function countDown() {
    var now = Date.now();
    Array.prototype.forEach.call(document.querySelectorAll(".sighting[data-left]"), function (el) {
      if (!el.dataset.due) el.dataset.due = String(now + parseFloat(el.dataset.left) * 1000);
      var left = (parseFloat(el.dataset.due) - now) / 1000;
      if (left > 0) {
        el.textContent = Math.ceil(left) + " s";
        return;
      }
      var holder = el.closest(".slot-card");
      if (holder) {
        holder.innerHTML = '<span class="card-face card-back" role="img"></span>';
        holder.firstChild.setAttribute("aria-label", holder.dataset.back);
        holder.parentNode.classList.remove("shown");
      }
    });
  }

  function boxes(kind) {
    return Array.prototype.slice.call(document.querySelectorAll('input[data-pick="' + kind + '"]'));
  }

  function fill(kind) {
    var button = document.querySelector('[data-submit="' + kind + '"]');
    if (!button) { picked[kind] = []; return; }
    // A redrawn region comes back unticked: tick again what was picked.
    boxes(kind).forEach(function (box) { box.checked = picked[kind].indexOf(box.value) >= 0; });
    var ready = picked[kind].length === 2;
    button.disabled = !ready;
    if (!ready) { button.value = ""; return; }
    var parts = picked[kind].map(function (value) { return JSON.parse(value); });
    button.value = JSON.stringify(kind === "peek" ? { type: "peek", slots: parts } : { type: "swap", a: parts[0], b: parts[1] });
  }

  function tick() {
    countDown();
    fill("peek");
    fill("swap");
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    var kind = box.dataset && box.dataset.pick;
    if (!kind) return;
    var list = picked[kind].filter(function (value) { return value !== box.value; });
    if (box.checked) list.push(box.value);
    // Two at most: a third pick lets go of the oldest.
    picked[kind] = list.slice(-2);
    fill(kind);
  });
  // Enter ticks a pick as Space does (a keyboard player's habit from the card buttons).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.dataset || !event.target.dataset.pick) return;
    event.preventDefault();
    event.target.click();
  });

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  document.addEventListener("htmx:oobAfterSwap", tick);
  setInterval(tick, 200);
})();
