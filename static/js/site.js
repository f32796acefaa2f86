// The site's script, one file for every page: the live channel, copy buttons, notices, keys and focus;
// at a table also the moves in words, "Your turn", cards gliding and the turn clock.
(function () {
  "use strict";
  var doc = document, root = doc.documentElement;
  function on(type, f) { doc.addEventListener(type, f); }
  function byId(id) { return id && doc.getElementById(id); }
  function all(selector, within) { return Array.prototype.slice.call((within || doc).querySelectorAll(selector)); }
  function enabled(selector, within) { return all(selector, within).filter(function (el) { return !el.disabled; }); }
  function text(selector) {
    var el = doc.querySelector(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The open socket, and its wrapper (which can open a fresh one).
  var socket = null, channel = null;
  function liveStatus(words, state) {
    var el = byId("live-status");
    if (el) { el.textContent = words; el.dataset.state = state; }
  }
  on("htmx:wsOpen", function (event) {
    // What this page shows: the server sends only what changed since (not the table over one's typing).
    var shown = byId("room-version");
    event.detail.socketWrapper.sendImmediately(JSON.stringify(shown ? { seq: shown.dataset.seq } : {}));
    socket = event.detail.event.target;
    channel = event.detail.socketWrapper;
    liveStatus("Live", "open");
  });
  on("htmx:wsClose", function (event) {
    // A socket given up may report its close after its successor opened.
    if (event.detail.event.target !== socket) return;
    socket = null;
    liveStatus("Reconnecting…", "closed");
  });
  // While live, an answer need not carry the table: the push brings it.
  on("htmx:configRequest", function (event) {
    if (socket) event.detail.headers["X-Live"] = "1";
  });

  on("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var link = button.dataset.copy, ask = function () { window.prompt("Copy this link:", link); };
    if (!navigator.clipboard || !window.isSecureContext) return ask();
    navigator.clipboard.writeText(link).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy link"; }, 1500);
    }, ask);
  });

  // Pushes and answers may cross: never swap in a table older than the one shown.
  function isOlder(html) {
    var shown = byId("room-version"), incoming = /id="room-version"[^>]*data-seq="(\d+)"/.exec(html || "");
    return shown !== null && incoming !== null && +incoming[1] < +shown.dataset.seq;
  }
  on("htmx:wsBeforeMessage", function (event) {
    if (isOlder(event.detail.message)) event.preventDefault();
  });
  on("htmx:beforeSwap", function (event) {
    if (isOlder(event.detail.serverResponse)) {
      // Keep the answer's notice (a refusal's reason), not its table.
      var notice = /<div id="notice"[\s\S]*?<\/div>/.exec(event.detail.serverResponse);
      event.detail.serverResponse = notice ? notice[0] : "";
    }
  });

  // An answer with the table (a stale move's) while live: the channel failed, open a fresh one. A
  // refusal floats above the control used.
  var used = null;
  on("htmx:beforeRequest", function (event) {
    var trigger = event.detail.requestConfig.triggeringEvent;
    used = (trigger && trigger.submitter) || event.detail.elt;
  });
  on("htmx:afterRequest", function (event) {
    var holder = byId("notice-holder"), near = used && used.isConnected ? used : doc.activeElement;
    if (socket && /<div id="room"/.test(event.detail.xhr.responseText)) channel.reconnect();
    if (holder) requestAnimationFrame(function () {
      holder.className = holder.textContent.trim() && near && near.closest("#room") ? "beside" : "";
      if (!holder.className) return;
      var box = near.getBoundingClientRect(), top = box.top - holder.offsetHeight - 6;
      holder.style.left = Math.max(8, Math.min(box.left, innerWidth - holder.offsetWidth - 8)) + scrollX + "px";
      holder.style.top = (top < 0 ? box.bottom + 6 : top) + scrollY + "px";
    });
  });

  // In a hand, left and right go between the cards you may play (Enter plays one).
  on("keydown", function (event) {
    var step = { ArrowLeft: -1, ArrowRight: 1 }[event.key], hand = step && event.target.closest("[data-hand]");
    if (!hand) return;
    var cards = enabled("button", hand), at = cards.indexOf(event.target);
    if (at < 0) return;
    cards[(at + step + cards.length) % cards.length].focus();
    event.preventDefault();
  });

  // A pushed region replaces the focused element: focus its successor (same value, else same place).
  var CONTROLS = "button, input, select, a[href]", focused = null;
  on("focusin", function (event) {
    var region = event.target.closest("section[id]");
    focused = region && {
      region: region.id, value: event.target.getAttribute("value"), index: all(CONTROLS, region).indexOf(event.target),
    };
  });
  function restoreFocus() {
    var region = focused && byId(focused.region);
    if (!region || (doc.activeElement && doc.activeElement !== doc.body)) return;
    var controls = enabled(CONTROLS, region);
    var same = controls.filter(function (b) { return focused.value !== null && b.getAttribute("value") === focused.value; })[0];
    var target = same || controls[Math.min(Math.max(focused.index, 0), controls.length - 1)];
    if (target) target.focus({ preventScroll: true });
  }

  // The status in words for a screen reader (#announcer), "Your turn" in the title, a chime: at a live
  // table, not a replay's. `quietly`: on page load, the table as it stands is not said.
  var said = null, title = doc.title, wasMyTurn = false;
  function announce(quietly) {
    if (!live) return;
    var headline = text("#status .headline"), myTurn = /^Your turn/.test(headline);
    var words = [text("#status .last-action"), /^(Your turn|Game over)/.test(headline) ? headline : ""]
      .filter(Boolean).join(" ");
    if (words && words !== said) {
      said = words;
      if (!quietly && byId("announcer")) byId("announcer").textContent = words;
    }
    doc.title = myTurn ? "Your turn · " + title : title;
    doc.body.classList.toggle("my-turn", myTurn);
    if (myTurn && !wasMyTurn && !quietly) chime();
    wasMyTurn = myTurn;
  }

  // A quiet tone (allowed once the player has touched the page).
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

  // A [data-flip] card a swap moved glides from its old place, a new one from its data-from (the seat
  // that played it), a removed one off to its data-to (the trick to its winner). CSS transitions
  // (.gliding): reduced motion makes them instant.
  var before = null;
  function snapshot() {
    before = {};
    all("[data-flip]").forEach(function (el) {
      if (!(el.dataset.flip in before) && el.getClientRects().length) {
        before[el.dataset.flip] = { el: el, rect: el.getBoundingClientRect() };
      }
    });
  }
  function shift(from, to) { return "translate(" + (from.left - to.left) + "px," + (from.top - to.top) + "px)"; }
  function move(el, from, to, end) {
    el.style.transform = shift(from, to);
    el.getBoundingClientRect();  // the start of the transition
    el.classList.add("gliding");
    el.style.transform = end || "";
  }
  function leave(old, target) {
    var ghost = old.el.cloneNode(true);
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("data-flip");
    ghost.classList.add("ghost");
    ghost.style.left = old.rect.left + "px";
    ghost.style.top = old.rect.top + "px";
    doc.body.appendChild(ghost);
    move(ghost, old.rect, old.rect, shift(target.getBoundingClientRect(), old.rect) + " scale(.4)");
    ghost.style.opacity = "0";
    setTimeout(function () { ghost.remove(); }, 600);
  }
  function play() {
    var was = before, now = {};
    before = null;
    if (!was || matchMedia("(prefers-reduced-motion: reduce)").matches || root.classList.contains("reduced-motion")) return;
    all("[data-flip]").forEach(function (el) {
      var old = was[el.dataset.flip], from = byId(el.dataset.from);
      now[el.dataset.flip] = true;
      if ((old && old.el === el) || !el.getClientRects().length) return;
      var origin = old ? old.rect : from && from.getBoundingClientRect(), to = el.getBoundingClientRect();
      if (origin && (Math.abs(origin.left - to.left) > 1 || Math.abs(origin.top - to.top) > 1)) move(el, origin, to);
    });
    Object.keys(was).forEach(function (key) {
      var target = !now[key] && byId(was[key].el.dataset.to);
      if (target) leave(was[key], target);
    });
  }

  // The turn clock: the server sends each deadline once (data-until, Unix seconds), never a push a
  // second; data-server-time corrects a browser whose clock is off.
  var live = doc.querySelector("[data-server-time]"), skew = live ? live.dataset.serverTime - Date.now() / 1000 : 0;
  function tick() {
    var now = Date.now() / 1000 + skew;
    all("[data-until]").forEach(function (el) {
      var until = +el.dataset.until, left = Math.max(0, Math.ceil(until - now));
      var time = el.querySelector("time"), counter = el.querySelector(".time-left");
      if (time && !time.dataset.local) {
        // In the reader's time of day.
        time.textContent = new Date((until - skew) * 1000).toLocaleTimeString();
        time.dataset.local = "1";
      }
      if (counter) counter.textContent = " (" + (left < 60 ? left + " s" : Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0")) + " left)";
      el.classList.toggle("urgent", left <= 10);
    });
  }
  if (live) setInterval(tick, 250);

  on("htmx:wsBeforeMessage", snapshot);
  on("htmx:beforeSwap", snapshot);
  on("htmx:oobAfterSwap", restoreFocus);
  on("htmx:afterSettle", function () { restoreFocus(); tick(); });
  on("htmx:wsAfterMessage", function () { play(); announce(); restoreFocus(); tick(); });
  on("htmx:afterSwap", function () { play(); announce(); });
  on("DOMContentLoaded", function () { announce(true); tick(); });
})();
