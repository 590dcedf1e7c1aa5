import AtomicFiles
internal import CCurl

/// A download's body: into its partial file, up to the byte limit.
final class DownloadBody: BodyReceiver {
    let file: AtomicFile
    let target: TransferTarget
    let maxBytes: Int64
    private(set) var received: Int64 = 0
    private(set) var failure: TransferError?

    init(file: AtomicFile, target: TransferTarget, maxBytes: Int64) {
        self.file = file
        self.target = target
        self.maxBytes = maxBytes
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard received + Int64(bytes.count) <= maxBytes else {
            failure = target.error(.tooLarge, "the body is larger than the limit of \(maxBytes) bytes")
            return false
        }
        do {
            try file.write(bytes)
        } catch {
            failure = target.error(.fileSystem, error.description)
            return false
        }
        received += Int64(bytes.count)
        return true
    }
}

/// Downloads `url` to `path`, blocking the calling thread; see `HTTPTransfer.download`.
func performDownload(
    from url: String, to path: String, limits: DownloadLimits, policy: AddressPolicy, userAgent: String,
    cancellation: CancellationFlag
) throws -> DownloadResult {
    let target = try TransferTarget(url, verb: "download")
    let file: AtomicFile
    do {
        file = try AtomicFile(path: path)
    } catch {
        throw target.error(.fileSystem, error.description)
    }
    let body = DownloadBody(file: file, target: target, maxBytes: limits.maxBytes)
    let context = TransferContext(body: body, policy: policy, cancellation: cancellation)
    let easy = try CurlEasy()
    try easy.configure(
        for: target, context: context, userAgent: userAgent, connectTimeout: limits.connectTimeout,
        totalTimeout: limits.totalTimeout)
    try easy.set(CURLOPT_FOLLOWLOCATION, 1)
    try easy.set(CURLOPT_MAXREDIRS, max(0, limits.maxRedirects))
    try easy.set(CURLOPT_FAILONERROR, 1)
    try easy.set(CURLOPT_MAXFILESIZE_LARGE, size: limits.maxBytes)
    if let lowSpeed = limits.lowSpeed {
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, lowSpeed.bytesPerSecond)
        try easy.set(CURLOPT_LOW_SPEED_TIME, max(1, lowSpeed.seconds))
    }
    do {
        try easy.perform(target, context: context)
    } catch let error as TransferError where error.curlCode == Int(CURLE_FILESIZE_EXCEEDED.rawValue) {
        let announced = easy.responseHeader("Content-Length").map { "\($0) bytes" } ?? "a size"
        throw target.error(
            .tooLarge, "the server announces \(announced), over the limit of \(limits.maxBytes) bytes",
            curlCode: CURLE_FILESIZE_EXCEEDED, easy: easy)
    }
    let status: Int = easy.info(CURLINFO_RESPONSE_CODE) ?? 0
    guard (200...299).contains(status) else {
        throw target.error(.httpStatus, "the server answered HTTP \(status)", httpStatus: status)
    }
    do {
        try file.commit()
    } catch {
        throw target.error(.fileSystem, error.description)
    }
    return DownloadResult(
        bytes: body.received, finalURL: easy.info(CURLINFO_EFFECTIVE_URL) ?? url, httpStatus: status,
        contentType: easy.info(CURLINFO_CONTENT_TYPE))
}
