internal import CCurl

/// A POST's response body, kept up to a limit; past it the transfer stops,
/// successfully, and the body is marked truncated.
final class ResponseBody: BodyReceiver {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var truncated = false
    let failure: TransferError? = nil

    init(limit: Int) {
        self.limit = limit
    }

    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let room = max(0, limit - bytes.count)
        bytes.append(contentsOf: chunk.prefix(room))
        truncated = chunk.count > room
        return !truncated
    }
}

/// POSTs `body` to `url`, blocking the calling thread; see `HTTPTransfer.post`.
func performPost(
    to url: String, headers: [(name: String, value: String)], body: [UInt8], timeout: Duration,
    responseBodyLimit: Int, policy: AddressPolicy, userAgent: String, cancellation: CancellationFlag, handles: ReusedHandles
) throws -> HTTPResponse {
    let target = try TransferTarget(url, verb: "POST to")
    var lines = try headers.map { try headerLine($0, for: target) }
    if !headers.contains(where: { $0.name.lowercased() == "expect" }) {
        lines.append("Expect:")  // no 100-continue round trip before the body
    }
    let response = ResponseBody(limit: responseBodyLimit)
    let context = TransferContext(body: response, policy: policy, cancellation: cancellation)
    let easy = try handles.take(for: policy)
    try easy.configure(
        for: target, context: context, userAgent: userAgent, connectTimeout: timeout, totalTimeout: timeout)
    try easy.set(headerLines: lines)
    try easy.set(CURLOPT_POST, 1)
    try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, size: Int64(body.count))
    if body.isEmpty {
        try easy.set(CURLOPT_COPYPOSTFIELDS, "")  // libcurl copies at least one byte
    } else {
        try body.withUnsafeBytes { bytes in
            try easy.set(CURLOPT_COPYPOSTFIELDS, pointer: bytes.baseAddress)
        }
    }
    try easy.perform(target, context: context)
    let answer = HTTPResponse(
        status: easy.info(CURLINFO_RESPONSE_CODE) ?? 0, headers: easy.responseHeaders, body: response.bytes,
        bodyWasTruncated: response.truncated)
    // Only after a complete answer: a handle whose transfer failed starts afresh next time.
    handles.giveBack(easy, for: policy)
    return answer
}

/// "Name: value" for a header whose name is an HTTP token and whose value
/// has no line breaks, which would smuggle in headers of their own.
private func headerLine(_ header: (name: String, value: String), for target: TransferTarget) throws(TransferError) -> String {
    let tokenSymbols = Set("!#$%&'*+-.^_`|~")
    guard !header.name.isEmpty,
        header.name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || tokenSymbols.contains($0)) })
    else {
        throw target.error(.invalidHeader, "the header name \"\(header.name)\" is not an HTTP token")
    }
    guard !header.value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" || $0 == "\0" }) else {
        throw target.error(.invalidHeader, "the value of header \(header.name) contains a line break or NUL")
    }
    return "\(header.name): \(header.value)"
}
