// Zero's safe sets: the picked cards' running sum, and "Lay down" lit only at exactly 0 or 10.
// The server checks the set again; this only saves a player a refused click. And on a phone, the
// totals to guess from (which scroll sideways there) open at the middle, around 0.
(function () {
  "use strict";

  function signed(value) {
    return value < 0 ? "\u2212" + -value : String(value);
  }

  function update(form) {
    var cards = Array.prototype.filter
      .call(form.querySelectorAll("input[data-value]"), function (box) { return box.checked; })
      .map(function (box) { return parseInt(box.dataset.value, 10); });
    var sum = cards.reduce(function (total, value) { return total + value; }, 0);
    var safe = cards.length > 0 && (sum === 0 || sum === 10);
    form.querySelector("[data-sum]").textContent = signed(sum);
    form.querySelector("[data-sum-hint]").textContent = !cards.length ? "(pick cards)"
      : safe ? "(a safe set: lay it down)" : "(needs 0 or 10)";
    var lay = form.querySelector("[data-lay]");
    lay.disabled = !safe;
    lay.value = safe ? JSON.stringify({ type: "safe", cards: cards }) : "";
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest("form[data-safe]");
    if (form) update(form);
  });
  // A browser may restore ticked boxes on reload: show their sum.
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-safe]"), update);
    centreTotals();
  });

  function centreTotals() {
    var grid = document.querySelector(".guess-grid");
    if (grid && !grid.dataset.centred) {
      grid.scrollLeft = (grid.scrollWidth - grid.clientWidth) / 2;
      grid.dataset.centred = "1";
    }
  }
  document.addEventListener("htmx:wsAfterMessage", centreTotals);
  document.addEventListener("htmx:afterSwap", centreTotals);
})();
