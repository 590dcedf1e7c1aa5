"""A webhook receiver on loopback for ops/bench webhooks: HTTP/1.1 with
keep-alive, one thread per connection, answers every POST 204 after reading
its body. Prints its URL on the first line of standard output."""
import http.server
import sys


class Receiver(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
print(f"http://127.0.0.1:{server.server_address[1]}/hook", flush=True)
server.serve_forever()
