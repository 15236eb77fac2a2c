"""For working on the inspector's page: serves Sources/MockAPNs/Control/Inspector/Assets/ from the working tree
(so an edit shows on reload, with no rebuild of the binary) and forwards everything else to a running
`mock-apns serve` control port, streams included. Development only; the tests use it with INSPECTOR_DEV_PROXY=1.

    python3 Tests/browser/devproxy.py ASSETS_FOLDER http://127.0.0.1:2190 8080   # then open http://127.0.0.1:8080/
"""

import http.server
import os
import sys
import urllib.error
import urllib.request

ASSETS, UPSTREAM, PORT = sys.argv[1], sys.argv[2].rstrip("/"), int(sys.argv[3])
PAGES = ("/push/", "/compare/", "/activity/", "/phones/")
VIEWS = ("/", "/activities", "/phones", "/connections", "/world")
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8"}
POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; "
          "frame-ancestors 'none'")


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", POLICY)
        self.end_headers()
        self.wfile.write(body)

    def forward(self, method: str) -> None:
        path = self.path.split("?")[0]
        if method == "GET" and path.startswith("/assets/"):
            name = os.path.basename(path)
            file = os.path.join(ASSETS, name)
            if os.path.isfile(file):
                with open(file, "rb") as handle:
                    return self.answer(200, handle.read(), TYPES.get(os.path.splitext(name)[1], "text/plain"))
            return self.answer(404, b"no such asset\n", "text/plain")
        if method == "GET" and (path in VIEWS or path.startswith(PAGES)):
            with open(os.path.join(ASSETS, "index.html"), "rb") as handle:
                return self.answer(200, handle.read(), TYPES[".html"])
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        names = ("authorization", "content-type", "last-event-id", "x-mock-apns")
        headers = {name: value for name, value in self.headers.items() if name.lower() in names}
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=method, headers=headers)
        try:
            upstream = urllib.request.urlopen(request)
        except urllib.error.HTTPError as error:
            upstream = error
        if upstream.headers.get("Content-Type", "").startswith("text/event-stream"):
            self.send_response(upstream.status)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                for line in upstream:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                    self.wfile.flush()
            except OSError:
                pass
            return
        self.answer(upstream.status, upstream.read(), upstream.headers.get("Content-Type", "text/plain"))

    def do_GET(self):
        self.forward("GET")

    def do_POST(self):
        self.forward("POST")

    def do_PUT(self):
        self.forward("PUT")

    def do_PATCH(self):
        self.forward("PATCH")

    def do_DELETE(self):
        self.forward("DELETE")


http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Proxy).serve_forever()
