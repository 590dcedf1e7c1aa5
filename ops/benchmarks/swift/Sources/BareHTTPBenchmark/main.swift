// usage: BareHTTPBenchmark
// The bound for `ops/bench api`: a bare Hummingbird server on loopback, built
// like Spotter's (release, the same Hummingbird), with no database, keys,
// middleware or JSON encoding. GET /bare answers a constant 50-byte JSON body;
// POST /bare reads the body to its end and answers its length. Prints its
// port on standard output once it listens; runs until killed.
import Foundation
import Hummingbird

let router = Router()
let constant = ByteBuffer(string: #"{"id":"bench","status":"succeeded","rep_count":5}"#)
router.get("bare") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: constant))
}
router.post("bare") { request, _ in
    var bytes = 0
    for try await chunk in request.body { bytes += chunk.readableBytes }
    return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"bytes":\#(bytes)}"#)))
}
let application = Application(
    router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(Data("\(channel.localAddress?.port ?? 0)\n".utf8))
    })
try await application.runService()
