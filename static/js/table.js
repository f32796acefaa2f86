// After every swap: the move said aloud, "Your turn" in the title with a chime, cards gliding.
(function () {
  "use strict";
  var root = document.documentElement;
  var each = function (selector, f) { Array.prototype.forEach.call(document.querySelectorAll(selector), f); };
  var byId = function (id) { return id && document.getElementById(id); };

  // Words for a screen reader (the polite #announcer), from the swapped status region.
  var said = null, title = document.title, wasMyTurn = false;
  function text(selector) {
    var el = document.querySelector(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  // `quietly`: on page load, the table as it stands, not said again.
  function announce(quietly) {
    var headline = text("#status .headline");
    var myTurn = /^Your turn/.test(headline);
    var words = [text("#status .last-action"), /^(Your turn|Game over)/.test(headline) ? headline : ""]
      .filter(Boolean).join(" ");
    if (words && words !== said) {
      said = words;
      if (!quietly && byId("announcer")) byId("announcer").textContent = words;
    }
    document.title = myTurn ? "Your turn · " + title : title;
    document.body.classList.toggle("my-turn", myTurn);
    if (myTurn && !wasMyTurn && !quietly) chime();
    wasMyTurn = myTurn;
  }

  // A short, quiet tone (browsers allow it once the player has touched the page).
  var audio = null;
  function chime() {
    if (root.classList.contains("no-sounds") || !window.AudioContext) return;
    try {
      audio = audio || new AudioContext();
      var tone = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.06, now);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(now + 0.35);
    } catch (ignored) { /* no sound is no harm */ }
  }

  // Motion: a [data-flip] card a swap moved glides from its old place; a new one glides in from its
  // data-from element (the seat that played it); one a swap removed glides off to its data-to element
  // (the trick to its winner). CSS transitions (.gliding), so reduced motion makes them instant.
  var before = null;
  function snapshot() {
    before = {};
    each("[data-flip]", function (el) {
      if (!(el.dataset.flip in before) && el.getClientRects().length) {
        before[el.dataset.flip] = { el: el, rect: el.getBoundingClientRect() };
      }
    });
  }
  function move(el, from, to, end) {
    el.style.transform = "translate(" + (from.left - to.left) + "px," + (from.top - to.top) + "px)";
    el.getBoundingClientRect();  // the start of the transition
    el.classList.add("gliding");
    el.style.transform = end || "";
  }
  function leave(old, target) {
    var ghost = old.el.cloneNode(true), to = target.getBoundingClientRect();
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("data-flip");
    ghost.classList.add("ghost");
    ghost.style.left = old.rect.left + "px";
    ghost.style.top = old.rect.top + "px";
    document.body.appendChild(ghost);
    var off = "translate(" + (to.left - old.rect.left) + "px," + (to.top - old.rect.top) + "px) scale(.4)";
    move(ghost, old.rect, old.rect, off);
    ghost.style.opacity = "0";
    setTimeout(function () { ghost.remove(); }, 600);
  }
  function play() {
    var was = before, now = {};
    before = null;
    var still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (!was || still || root.classList.contains("reduced-motion")) return;
    each("[data-flip]", function (el) {
      var old = was[el.dataset.flip], from = byId(el.dataset.from);
      now[el.dataset.flip] = true;
      if ((old && old.el === el) || !el.getClientRects().length) return;
      var origin = old ? old.rect : from && from.getBoundingClientRect(), to = el.getBoundingClientRect();
      var moved = origin && (Math.abs(origin.left - to.left) > 1 || Math.abs(origin.top - to.top) > 1);
      if (moved) move(el, origin, to);
    });
    Object.keys(was).forEach(function (key) {
      var target = !now[key] && byId(was[key].el.dataset.to);
      if (target) leave(was[key], target);
    });
  }

  document.addEventListener("htmx:wsBeforeMessage", snapshot);
  document.addEventListener("htmx:beforeSwap", snapshot);
  document.addEventListener("htmx:wsAfterMessage", function () { play(); announce(); });
  document.addEventListener("htmx:afterSwap", function () { play(); announce(); });
  document.addEventListener("DOMContentLoaded", function () { announce(true); });
})();
