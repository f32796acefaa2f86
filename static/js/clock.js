// The turn clock counted down by the browser: the server sends each deadline once (data-until, in
// seconds since 1970), never a push per second. The page says when it was drawn by the server
// (data-server-time), so a browser whose own clock is off still counts the right seconds.
(function () {
  "use strict";
  var URGENT = 10;
  var skew = 0;
  var live = document.querySelector("[data-server-time]");
  if (live) skew = parseFloat(live.dataset.serverTime) - Date.now() / 1000;

  function shown(seconds) {
    var minutes = Math.floor(seconds / 60), rest = seconds % 60;
    return minutes ? minutes + ":" + (rest < 10 ? "0" : "") + rest : rest + " s";
  }
  function tick() {
    var now = Date.now() / 1000 + skew;
    var deadlines = document.querySelectorAll("[data-until]");
    for (var i = 0; i < deadlines.length; i++) {
      var el = deadlines[i];
      var until = parseFloat(el.dataset.until);
      var left = Math.max(0, Math.ceil(until - now));
      var time = el.querySelector("time");
      if (time && !time.dataset.local) {
        // The deadline in the reader's own time of day, not the server's.
        time.textContent = new Date((until - skew) * 1000).toLocaleTimeString();
        time.dataset.local = "1";
      }
      var counter = el.querySelector(".time-left");
      if (counter) counter.textContent = " (" + shown(left) + " left)";
      el.classList.toggle("urgent", left <= URGENT);
    }
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("htmx:afterSettle", tick);
  tick();
})();
