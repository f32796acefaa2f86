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

  // The live channel: `latest` the socket last opened, `socket` the live one, `channel` its wrapper.
  var socket = null, latest = null, channel = null, retries = 0, retry = null, held = null, heard = 0;
  // At once, then a capped jittered back-off: back within 2 s, without a stampede.
  function backoff() { return retries++ && Math.min(2000, 125 << retries) * (0.5 + Math.random() / 2); }
  // A busy site refuses a channel unopened (503), which a page cannot read: asked over HTTP, it says so;
  // a watcher waits the Retry-After (`busyWait`), a seated player (let in first) keeps the back-off.
  var busyWait = 0;
  function busy(answer) {
    var note = byId("live-busy");
    if (!note) return;  // a page's channel other than a table's: its back-off alone
    note.hidden = !(note.textContent = answer.status == 503 ? note.dataset.busy : "");
    busyWait = !note.hidden && "wait" in note.dataset && 1000 * answer.headers.get("Retry-After");
  }
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function () { return busyWait * (0.5 + Math.random() / 2) || backoff(); };
    htmx.createWebSocket = function (url) { return (latest = new WebSocket(url)); };
  }
  function showStatus() {
    var el = byId("live-status");
    heard = Date.now();  // news of the channel
    if (el) el.dataset.state = (el.textContent = navigator.onLine ? (socket ? "Live" : "Reconnecting…") : "Offline");
  }
  // Online, seen again, or failed: a quiet socket may never say so.
  function reopen() {
    if (!channel || !navigator.onLine) return;
    clearTimeout(retry);
    retries = 0;
    socket = null;
    showStatus();
    channel.reconnect();
  }
  // Silent 2.5 s (the server beats every second) or not open in 5 s: stalled where nothing closes.
  // A heartbeat (empty) is swapped in as nothing, nor a table older than the one shown (pushes and
  // answers may cross).
  on("htmx:wsBeforeMessage", function (event) {
    heard = Date.now();
    if (!event.detail.message || isOlder(event.detail.message)) event.preventDefault();
  });
  setInterval(function () {
    if (Date.now() - heard > (socket ? 2500 : 5000) && (socket || latest && !latest.readyState)) reopen();
  }, 500);
  on("htmx:wsOpen", function (event) {
    var opened = event.detail.event.target;
    channel = event.detail.socketWrapper;
    busy(opened.opened = {});  // open: no refusal, and its close is none
    if (opened !== latest) return opened.close();
    // What this page shows: the server sends only what changed since.
    var shown = byId("room-version");
    channel.sendImmediately(JSON.stringify(shown ? { seq: shown.dataset.seq } : {}));
    socket = opened;
    retries = 0;
    showStatus();
    if (held) htmx.ajax("POST", held.path, { source: byId("room"), values: held.values, swap: "none" });
    // Its answer's notice floats beside the control the move was made with.
    if (held) used = held.used, usedBox = held.box;
    held = null;
  });
  on("htmx:wsClose", function (event) {
    var closed = event.detail.event;
    if (!closed.target.opened && byId("live-busy")) fetch(byId("live-busy").dataset.ask).then(busy, busy);
    if (closed.target !== latest) return;  // given up, closing after its successor opened
    socket = null;
    holdUnanswered();
    showStatus();
    // The extension reopens by itself after these only.
    if ([1006, 1011, 1012, 1013].indexOf(closed.code) < 0) retry = setTimeout(channel.reconnect, backoff());
  });
  addEventListener("online", reopen);
  addEventListener("offline", showStatus);
  on("visibilitychange", function () { if (!doc.hidden && !socket) reopen(); });
  // While live, an answer need not carry the table: the push brings it.
  on("htmx:configRequest", function (event) {
    if (socket) event.detail.headers["X-Live"] = "1";
  });
  // A fair deal: the browser's randomness, drawn as Start or Play again is pressed (docs/fairness.md).
  doc.addEventListener("submit", function (event) {
    all("[data-contribution]", event.target).forEach(function (input) {
      input.value = Array.from(crypto.getRandomValues(new Uint8Array(32)), function (b) { return (256 + b).toString(16).slice(1); }).join("");
    });
  }, true);

  // A move made while the channel is down waits (the last one tapped) and is sent once it is live, with
  // the version it was chosen on: the server refuses it, saying why, if the table moved meanwhile.
  function asMove(config) {
    var values = {};
    config.formData.forEach(function (value, key) { values[key] = key in values ? [].concat(values[key], value) : value; });
    return { path: config.path, values: values };
  }
  function hold(move) {
    held = move;
    move.used = used, move.box = usedBox;
    byId("notice").innerHTML = '<p class="notice">Not connected: your move will be sent when the table is live again.</p>';
  }
  function isTableMove(config) { return config.verb === "post" && config.elt.closest(".live"); }
  // While live, a move of the game goes over the channel, which answers with the page's notice (with
  // the push of the table it made). One not answered when the channel closes, or within 2.5 s (a
  // channel stalled without closing), is held as above, and the channel opened again.
  var unanswered = null;
  function isPlay(config) { return isTableMove(config) && /\/act(\?|$)/.test(config.path); }
  function sendOver(config) {
    var move = unanswered = asMove(config);
    socket.send(JSON.stringify({ move: move.values }));
    setTimeout(function () { if (unanswered === move) reopen(holdUnanswered()); }, 2500);
  }
  function holdUnanswered() {
    if (unanswered) hold(unanswered);
    unanswered = null;
  }
  on("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (isTableMove(config)) reopen(hold(asMove(config)));
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
  on("htmx:beforeSwap", function (event) {
    if (isOlder(event.detail.serverResponse)) {
      // Keep the answer's notice (a refusal's reason), not its table.
      var notice = /<div id="notice"[\s\S]*?<\/div>/.exec(event.detail.serverResponse);
      event.detail.serverResponse = notice ? notice[0] : "";
    }
  });

  // An answer with the table (a stale move's) while live: the channel failed. A refusal floats beside
  // the control used, or where it was when the answer's table replaced it. A move made while the
  // channel is down is held (above).
  var used = null, usedBox = null;
  on("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig, trigger = config.triggeringEvent;
    used = (trigger && trigger.submitter) || event.detail.elt;
    usedBox = used.closest("#room") ? used.getBoundingClientRect() : null;
    if ((!socket || !navigator.onLine) && isTableMove(config)) event.preventDefault(hold(asMove(config)));
    else if (isPlay(config)) event.preventDefault(sendOver(config));
  });
  on("htmx:afterRequest", function (event) {
    if (socket && /<div id="room"/.test(event.detail.xhr.responseText)) reopen();
    // A chat line said (no refusal came back) leaves its box empty for the next.
    if (event.detail.elt.matches("[data-clears]") && !text("#notice")) event.detail.elt.reset();
    placeNotice();
  });
  on("htmx:wsAfterMessage", function (event) {
    if (/id="notice"/.test(event.detail.message)) placeNotice(unanswered = null);
  });
  function placeNotice() {
    var holder = byId("notice-holder"), box = used && used.isConnected && used.closest("#room") ? used.getBoundingClientRect() : usedBox;
    // At once (the answer is swapped in by now): a tab in the background runs no animation frames.
    if (!holder || !(holder.className = holder.textContent.trim() && box ? "beside" : "")) return;
    var top = box.top - holder.offsetHeight - 6;
    holder.style.left = Math.max(8, Math.min(box.left, innerWidth - holder.offsetWidth - 8)) + scrollX + "px";
    holder.style.top = (top < 0 ? box.bottom + 6 : top) + scrollY + "px";
  }

  // In a hand, left and right go between the cards you may play (Enter plays one).
  on("keydown", function (event) {
    var step = { ArrowLeft: -1, ArrowRight: 1 }[event.key], hand = step && event.target.closest("[data-hand]");
    if (!hand) return;
    var cards = enabled("button", hand), at = cards.indexOf(event.target);
    if (at < 0) return;
    cards[(at + step + cards.length) % cards.length].focus();
    event.preventDefault();
  });

  // A pushed region replaced the focused element: focus its successor (same value, else place).
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

  // The status in words for screen readers, "Your turn" in the title, a chime: at a live table only.
  // `quietly`: on page load, the table as it stands is not said.
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
    if (myTurn && !wasMyTurn) bringMoveIntoSight();
    wasMyTurn = myTurn;
  }

  // Your turn with no move in sight (a host who scrolled down to Start, a phone reading the scores): the
  // page goes to its top if a move is in sight there, else the first move comes to the nearest edge. A
  // move already in sight, or a player typing, keeps the page still.
  var MOVES = ['button[name="action"]', 'input[name^="action."]', "input[data-pick]"]
    .map(function (control) { return "#room " + control + ":enabled"; }).join(", ");
  function placed(el) {
    // Where the card lies in the page, not where its glide has it now.
    var box = el.getBoundingClientRect(), moved = getComputedStyle(el).transform;
    var top = box.top + scrollY - (moved && moved !== "none" ? new DOMMatrix(moved).m42 : 0);
    return { top: top, bottom: top + box.height };
  }
  function inSight(box, scrolled) { return box.top >= scrolled && box.bottom <= scrolled + innerHeight; }
  function bringMoveIntoSight() {
    var typing = doc.activeElement && doc.activeElement.matches("input:not([type]), textarea");
    var boxes = all(MOVES).filter(function (el) { return el.getClientRects().length; }).map(placed);
    if (typing || !boxes.length || boxes.some(function (box) { return inSight(box, scrollY); })) return;
    var first = boxes[0], atTop = boxes.some(function (box) { return inSight(box, 0); });
    window.scrollTo(0, atTop ? 0 : first.top < scrollY ? first.top : first.bottom - innerHeight);
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

  // A moved [data-flip] card glides from its old place, a new one from its data-from (its player), a
  // removed one to its data-to (a trick to its winner); reduced motion makes them instant.
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

  // The turn clock: each deadline is sent once (data-until, Unix seconds), not a push a second;
  // data-server-time corrects a browser's clock.
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
