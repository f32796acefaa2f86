// A table's comfort after every swap: moves said aloud, "Your turn" in the tab's title with a chime,
// and cards gliding from where they were to where they went.
(function () {
  "use strict";
  var root = document.documentElement;

  // --- Words: the last move and "Your turn", for a screen reader, from the swapped status region.
  var said = null;
  var title = document.title;
  var wasMyTurn = false;
  function text(selector) {
    var el = document.querySelector(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  // `quietly` on page load: the table as it stands, without saying it again.
  function announce(quietly) {
    var headline = text("#status .headline");
    var myTurn = /^Your turn/.test(headline);
    var over = /^Game over/.test(headline);
    var words = [text("#status .last-action"), myTurn || over ? headline : ""].filter(Boolean).join(" ");
    if (words && words !== said) {
      said = words;
      if (quietly) words = "";
      var announcer = document.getElementById("announcer");
      if (announcer && words) announcer.textContent = words;
    }
    document.title = myTurn ? "Your turn · " + title : title;
    document.body.classList.toggle("my-turn", myTurn);
    if (myTurn && !wasMyTurn && !quietly) chime();
    wasMyTurn = myTurn;
  }

  // A short, quiet tone; browsers allow sound only after the player has touched the page.
  var audio = null;
  function chime() {
    if (root.classList.contains("no-sounds") || !window.AudioContext) return;
    try {
      audio = audio || new AudioContext();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.06, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch (ignored) { /* no sound is no harm */ }
  }

  // --- Motion: an element marked data-flip="<card>" that a swap moved glides from its old place;
  // a new one with data-from="<id>" glides in from that element (the seat that played it); an old one
  // with data-to="<id>" that a swap removed glides off to that element (the trick to its winner).
  // Plain CSS transitions (.gliding): reduced motion, set here or by the system, makes them instant.
  var before = null;
  function snapshot() {
    before = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-flip]"), function (el) {
      var key = el.dataset.flip;
      if (!(key in before) && el.getClientRects().length) before[key] = { el: el, rect: el.getBoundingClientRect() };
    });
  }
  function still() {
    return root.classList.contains("reduced-motion") || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }
  function glide(el, from) {
    var to = el.getBoundingClientRect();
    var dx = from.left - to.left, dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    el.style.transform = "translate(" + dx + "px, " + dy + "px)";
    el.getBoundingClientRect();  // the browser takes the old place as the start of the transition
    el.classList.add("gliding");
    el.style.transform = "";
  }
  function leave(old, target) {
    var to = target.getBoundingClientRect();
    var ghost = old.el.cloneNode(true);
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("data-flip");
    ghost.className += " ghost";
    ghost.style.left = old.rect.left + "px";
    ghost.style.top = old.rect.top + "px";
    document.body.appendChild(ghost);
    ghost.getBoundingClientRect();
    ghost.classList.add("gliding");
    ghost.style.transform = "translate(" + (to.left - old.rect.left) + "px, " + (to.top - old.rect.top) + "px) scale(.4)";
    ghost.style.opacity = "0";
    ghost.addEventListener("transitionend", function () { ghost.remove(); });
    setTimeout(function () { ghost.remove(); }, 800);
  }
  function play() {
    if (!before) return;
    var was = before;
    before = null;
    if (still()) return;
    var now = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-flip]"), function (el) {
      var key = el.dataset.flip;
      now[key] = true;
      var old = was[key];
      if ((old && old.el === el) || !el.getClientRects().length) return;
      var origin = old ? old.rect : null;
      var from = !origin && el.dataset.from && document.getElementById(el.dataset.from);
      if (from) origin = from.getBoundingClientRect();
      if (origin) glide(el, origin);
    });
    Object.keys(was).forEach(function (key) {
      var old = was[key];
      var target = !now[key] && old.el.dataset.to && document.getElementById(old.el.dataset.to);
      if (target) leave(old, target);
    });
  }

  document.addEventListener("htmx:wsBeforeMessage", snapshot);
  document.addEventListener("htmx:beforeSwap", snapshot);
  document.addEventListener("htmx:wsAfterMessage", function () { play(); announce(); });
  document.addEventListener("htmx:afterSwap", function () { play(); announce(); });
  document.addEventListener("DOMContentLoaded", function () { announce(true); });
})();
