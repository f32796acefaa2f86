// Zero Down: a swap is two clicks (your card, then a pool card), shown in words before it is sent;
// your cards' grouping (by colour or by number) is remembered. Without this script the two radio
// groups and the Swap button still work, and the server checks every swap again.
(function () {
  "use strict";

  var GROUPING = "zero_down.grouping";
  var picked = { give: null, take: null };

  function radios(name) {
    return Array.prototype.slice.call(document.querySelectorAll('input[name="action.' + name + '"]'));
  }
  function checkedIn(name) {
    return radios(name).filter(function (radio) { return radio.checked && !radio.disabled; })[0] || null;
  }
  function spoken(radio) { return radio.getAttribute("aria-label"); }

  // Say what the picks make, and offer Confirm only for a whole pairing.
  function update() {
    var form = document.getElementById("zd-swap");
    if (!form) return;
    var give = checkedIn("give");
    var take = checkedIn("take");
    picked = { give: give && give.value, take: take && take.value };
    var text = form.querySelector("[data-pairing]");
    var confirm = form.querySelector("[data-confirm]");
    var cancel = form.querySelector("[data-cancel]");
    if (give && take) text.textContent = "Put " + spoken(give) + " in, take " + spoken(take) + "?";
    else if (give) text.textContent = "Put " + spoken(give) + " in: now pick the pool card to take.";
    else if (take) text.textContent = "Take " + spoken(take) + ": now pick the card of yours to put in.";
    else text.textContent = "Pick one of your cards to put in, then a pool card to take.";
    confirm.disabled = !(give && take);
    confirm.textContent = give && take ? "Confirm" : "Swap";
    cancel.hidden = !(give || take);
  }

  function firstEnabled(name) {
    return radios(name).filter(function (radio) { return !radio.disabled; })[0] || null;
  }

  // After a pick, go where the next step is: the other group, or Confirm.
  function nextStep(radio) {
    var other = radio.name === "action.give" ? "take" : "give";
    var form = document.getElementById("zd-swap");
    if (checkedIn(other)) {
      if (form) form.querySelector("[data-confirm]").focus();
    } else {
      var target = firstEnabled(other);
      if (target) target.focus();
    }
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "action.give" || target.name === "action.take") {
      update();
    } else if (target.name === "zd-group") {
      try { localStorage.setItem(GROUPING, target.value); } catch (e) { /* private mode: just not kept */ }
    }
  });

  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-cancel]")) return;
    radios("give").concat(radios("take")).forEach(function (radio) { radio.checked = false; });
    update();
    var first = firstEnabled("give");
    if (first) first.focus();
  });

  // Keys: Enter picks the focused card and moves on to the next step (Space just picks it); arrows
// follow your cards as they are laid out.
  document.addEventListener("keydown", function (event) {
    var radio = event.target;
    if (radio.name !== "action.give" && radio.name !== "action.take") return;
    if (event.key === "Enter") {
      event.preventDefault();
      radio.checked = true;
      update();
      nextStep(radio);
      return;
    }
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step || radio.name !== "action.give") return;
    // By number, the cards sit in another order than the page's: go by where they are drawn.
    var cards = radios("give").filter(function (r) { return !r.disabled; });
    var at = function (r) { var box = r.getBoundingClientRect(); return [Math.round(box.top), box.left]; };
    cards.sort(function (a, b) { var p = at(a), q = at(b); return p[0] - q[0] || p[1] - q[1]; });
    var next = cards[(cards.indexOf(radio) + step + cards.length) % cards.length];
    event.preventDefault();
    next.focus();
    next.checked = true;
    update();
  });

  // A redrawn region comes back as the server drew it: put back the grouping and the picks.
  function restore() {
    var grouping = null;
    try { grouping = localStorage.getItem(GROUPING); } catch (e) { /* not kept */ }
    var choice = grouping && document.querySelector('input[name="zd-group"][value="' + grouping + '"]');
    if (choice) choice.checked = true;
    if (!document.getElementById("zd-swap")) {
      // Not your turn (or your swap went in): the next turn starts with nothing picked.
      picked = { give: null, take: null };
      return;
    }
    ["give", "take"].forEach(function (name) {
      var value = picked[name];
      var radio = value && radios(name).filter(function (r) { return r.value === value && !r.disabled; })[0];
      if (radio && !radio.checked) radio.checked = true;
    });
    update();
  }
  document.addEventListener("DOMContentLoaded", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
  document.addEventListener("htmx:afterSwap", restore);
})();
