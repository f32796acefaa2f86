// A little plain JavaScript: live status, copy buttons, arrow keys in a hand, focus kept across swaps,
// and a refusal's notice beside the control that was used.
(function () {
  "use strict";

  function liveStatus(text, state) {
    var el = document.getElementById("live-status");
    if (el) { el.textContent = text; el.dataset.state = state; }
  }
  // The open socket, and its wrapper (which can open a fresh one).
  var socket = null, channel = null;
  document.addEventListener("htmx:wsOpen", function (event) {
    // Tell the server what this page shows, so that it sends only what changed since (and never
    // the whole table over what a player is typing).
    var shown = document.getElementById("room-version");
    var hello = shown ? { seq: shown.dataset.seq } : {};
    event.detail.socketWrapper.sendImmediately(JSON.stringify(hello));
    socket = event.detail.event.target;
    channel = event.detail.socketWrapper;
    liveStatus("Live", "open");
  });
  document.addEventListener("htmx:wsClose", function (event) {
    // A socket given up for a fresh one may report its close after the fresh one opened.
    if (event.detail.event.target !== socket) return;
    socket = null;
    liveStatus("Reconnecting…", "closed");
  });
  // While the live channel is open, an answer need not carry the table: the push brings it.
  document.addEventListener("htmx:configRequest", function (event) {
    if (socket) event.detail.headers["X-Live"] = "1";
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var text = button.dataset.copy;
    var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy link"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { window.prompt("Copy this link:", text); });
    } else {
      window.prompt("Copy this link:", text);
    }
  });

  // Pushes and answers can cross on the wire: never swap in a table older than the one shown.
  function seqIn(html) {
    var match = /id="room-version"[^>]*data-seq="(\d+)"/.exec(html || "");
    return match ? parseInt(match[1], 10) : null;
  }
  function isOlder(html) {
    var shown = document.getElementById("room-version");
    var incoming = seqIn(html);
    return shown !== null && incoming !== null && incoming < parseInt(shown.dataset.seq, 10);
  }
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (isOlder(event.detail.message)) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (isOlder(event.detail.serverResponse)) {
      // Keep the answer's notice (a refusal's reason), drop its older table.
      var notice = /<div id="notice"[\s\S]*?<\/div>/.exec(event.detail.serverResponse);
      event.detail.serverResponse = notice ? notice[0] : "";
    }
  });

  // An answer that brings the table (a stale move's) while live: the channel failed, open a fresh
  // one. A refusal floats above the control used.
  var used = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var trigger = event.detail.requestConfig.triggeringEvent;
    used = (trigger && trigger.submitter) || event.detail.elt;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var holder = document.getElementById("notice-holder");
    var near = used && used.isConnected ? used : document.activeElement;
    if (socket && /<div id="room"/.test(event.detail.xhr.responseText)) channel.reconnect();
    if (holder) requestAnimationFrame(function () {
      holder.className = holder.textContent.trim() && near && near.closest("#room") ? "beside" : "";
      if (!holder.className) return;
      var box = near.getBoundingClientRect();
      var top = box.top - holder.offsetHeight - 6;
      holder.style.left = Math.max(8, Math.min(box.left, innerWidth - holder.offsetWidth - 8)) + scrollX + "px";
      holder.style.top = (top < 0 ? box.bottom + 6 : top) + scrollY + "px";
    });
  });

  // In a hand, left and right move between the cards you may play; Enter plays the focused one.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    var hand = event.target.closest("[data-hand]");
    if (!hand) return;
    var cards = Array.prototype.filter.call(hand.querySelectorAll("button"), function (b) { return !b.disabled; });
    var at = cards.indexOf(event.target);
    if (at < 0 || !cards.length) return;
    var next = cards[(at + (event.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
    next.focus();
    event.preventDefault();
  });

  // A pushed region replaces the element that had focus: put focus back on its successor, so a
  // keyboard player keeps their place.
  var focused = null;
  document.addEventListener("focusin", function (event) {
    var region = event.target.closest("section[id]");
    if (!region) { focused = null; return; }
    var buttons = Array.prototype.slice.call(region.querySelectorAll("button, input, select, a[href]"));
    focused = { region: region.id, value: event.target.getAttribute("value"), index: buttons.indexOf(event.target) };
  });
  function restoreFocus() {
    if (!focused || (document.activeElement && document.activeElement !== document.body)) return;
    var region = document.getElementById(focused.region);
    if (!region) return;
    var controls = Array.prototype.filter.call(region.querySelectorAll("button, input, select, a[href]"), function (b) { return !b.disabled; });
    var same = controls.filter(function (b) { return focused.value !== null && b.getAttribute("value") === focused.value; })[0];
    var target = same || controls[Math.min(Math.max(focused.index, 0), controls.length - 1)];
    if (target) target.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:oobAfterSwap", restoreFocus);
  document.addEventListener("htmx:afterSettle", restoreFocus);
  document.addEventListener("htmx:wsAfterMessage", restoreFocus);
})();
