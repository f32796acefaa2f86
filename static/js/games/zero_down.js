// Zero Down: a swap's two picks said in words before it is sent, and the grouping of your cards kept.
// Without it the radios and the Swap button still work (and the server checks every swap).
(function () {
  "use strict";
  var GROUPING = "zero_down.grouping", picked = {};

  function radios(name) {
    return Array.prototype.filter.call(document.getElementsByName("action." + name), function (r) { return !r.disabled; });
  }
  function checked(name) { return radios(name).filter(function (r) { return r.checked; })[0]; }

  // Confirm only for a whole pairing.
  function update() {
    var form = document.getElementById("zd-swap");
    if (!form) return;
    var give = checked("give"), take = checked("take"), confirm = form.querySelector("[data-confirm]");
    var put = give && "Put " + give.getAttribute("aria-label"), get = take && take.getAttribute("aria-label");
    picked = { give: give && give.value, take: take && take.value };
    form.querySelector("[data-pairing]").textContent = give && take ? put + " in, take " + get + "?"
      : give ? put + " in: now pick the pool card to take."
      : take ? "Take " + get + ": now pick the card of yours to put in."
      : "Pick one of your cards to put in, then a pool card to take.";
    confirm.disabled = !(give && take);
    confirm.textContent = give && take ? "Confirm" : "Swap";
    form.querySelector("[data-cancel]").hidden = !(give || take);
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (/^action\.(give|take)$/.test(target.name)) update();
    else if (target.name === "zd-group") {
      try { localStorage.setItem(GROUPING, target.value); } catch (e) { /* private mode: just not kept */ }
    }
  });

  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-cancel]")) return;
    radios("give").concat(radios("take")).forEach(function (r) { r.checked = false; });
    update();
    if (radios("give")[0]) radios("give")[0].focus();
  });

  // Enter picks and goes on to the other group, or Confirm. Arrows follow your cards as drawn (by
  // number, not the page's order).
  document.addEventListener("keydown", function (event) {
    var radio = event.target, step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    var other = { "action.give": "take", "action.take": "give" }[radio.name];
    if (event.key === "Enter" && other) {
      radio.checked = true;
      update();
      var next = checked(other) ? document.querySelector("#zd-swap [data-confirm]") : radios(other)[0];
      if (next) next.focus();
    } else if (step && other === "take") {
      var at = function (r) { var box = r.getBoundingClientRect(); return Math.round(box.top) * 1e4 + box.left; };
      var cards = radios("give").sort(function (a, b) { return at(a) - at(b); });
      radio = cards[(cards.indexOf(radio) + step + cards.length) % cards.length];
      radio.focus();
      radio.checked = true;
      update();
    } else return;
    event.preventDefault();
  });

  // A redrawn region comes back unpicked: put back the grouping and the picks.
  function restore() {
    var grouping = null;
    try { grouping = localStorage.getItem(GROUPING); } catch (e) { /* not kept */ }
    var choice = grouping && document.querySelector('input[name="zd-group"][value="' + grouping + '"]');
    if (choice) choice.checked = true;
    // Not your turn (or your swap went in): the next starts with nothing picked.
    if (!document.getElementById("zd-swap")) picked = {};
    ["give", "take"].forEach(function (name) {
      radios(name).forEach(function (r) { if (r.value === picked[name]) r.checked = true; });
    });
    update();
  }
  document.addEventListener("DOMContentLoaded", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:afterSwap", restore);
})();
