// A little plain JavaScript: live status, copy buttons, arrow keys in a hand, focus kept across swaps.
(function () {
  "use strict";

  function liveStatus(text, state) {
    var el = document.getElementById("live-status");
    if (el) { el.textContent = text; el.dataset.state = state; }
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    // Tell the server what this page shows, so that it sends only what changed since (and never
    // the whole table over what a player is typing).
    var shown = document.getElementById("room-version");
    var hello = shown ? { seq: shown.dataset.seq } : {};
    event.detail.socketWrapper.sendImmediately(JSON.stringify(hello));
    live = true;
    liveStatus("Live", "open");
  });
  document.addEventListener("htmx:wsClose", function () { live = false; liveStatus("Reconnecting…", "closed"); });
  // While the live channel is open, an answer need not carry the table: the push brings it.
  var live = false;
  document.addEventListener("htmx:configRequest", function (event) {
    if (live) event.detail.headers["X-Live"] = "1";
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
