"""What stands between the browser and the site in the outage tests, on a free port of the loopback:
`Stall`, a plain TCP relay that can stop forwarding for a while. (nginx in front of several processes
is zerogames.front's.)"""

from __future__ import annotations

import socket
import threading


class Stall:
    """A TCP proxy on the loopback that can stop forwarding without closing anything, as a lift, a
    tunnel or a closed laptop lid does: what is sent meanwhile waits, and flows on when it resumes."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.flowing = threading.Event()
        self.flowing.set()
        threading.Thread(target=self._accept, daemon=True).start()

    def stall(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()  # the server is down: a refused connection, as the browser would see
                continue
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.flowing.wait()
                sink.sendall(data)
            self.flowing.wait()
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass
