internal import CCurl
internal import CCurlShims
import Synchronization

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Where a response body goes as it arrives.
protocol BodyReceiver: AnyObject {
    /// Takes the next bytes of the body; `false` stops the transfer, which
    /// fails with `failure` if there is one and succeeds otherwise.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Why the receiver stopped the transfer, if it did so on failure.
    var failure: TransferError? { get }
}

/// Set when the task that started a transfer is cancelled; the transfer's
/// progress callback reads it on the transfer's thread.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic(false)
    func cancel() { cancelled.store(true, ordering: .relaxed) }
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

/// What libcurl's callbacks work with during one transfer: the body's
/// receiver, the address policy with the connection attempts it refused, and
/// the cancellation flag. It must outlive `CurlEasy.perform`, since libcurl
/// holds it as an unretained pointer.
final class TransferContext {
    let body: any BodyReceiver
    let policy: AddressPolicy
    let cancellation: CancellationFlag
    /// The addresses the policy refused since the last connection was made,
    /// in the order libcurl tried them.
    private(set) var refusedAddresses: [IPAddress] = []
    /// How many sockets the policy allowed since the last connection was
    /// made: when libcurl then fails to connect, not every address was refused.
    private(set) var allowedAttempts = 0

    init(body: any BodyReceiver, policy: AddressPolicy, cancellation: CancellationFlag) {
        self.body = body
        self.policy = policy
        self.cancellation = cancellation
    }

    /// Points `easy`'s body, progress, socket and connection callbacks at this context.
    func install(on easy: CurlEasy) throws(TransferError) {
        let opaque = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        try easy.set(CURLOPT_WRITEFUNCTION, receiveBody)
        try easy.set(CURLOPT_WRITEDATA, pointer: opaque)
        try easy.set(CURLOPT_NOPROGRESS, 0)
        try easy.set(progress: checkCancellation)
        try easy.set(CURLOPT_XFERINFODATA, pointer: opaque)
        try easy.set(openSocket: openAllowedSocket)
        try easy.set(CURLOPT_OPENSOCKETDATA, pointer: opaque)
        try easy.set(connected: noteConnection)
        try easy.set(CURLOPT_PREREQDATA, pointer: opaque)
    }

    fileprivate static func from(_ opaque: UnsafeMutableRawPointer?) -> TransferContext {
        Unmanaged<TransferContext>.fromOpaque(opaque!).takeUnretainedValue()
    }

    /// Starts over counting connection attempts, as one has succeeded.
    fileprivate func forgetAttempts() {
        refusedAddresses = []
        allowedAttempts = 0
    }

    /// Opens a socket for `address` if the policy allows it, else records the
    /// refusal and returns -1, which fails this connection attempt.
    fileprivate func openSocket(for address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        var bytes = [UInt8](repeating: 0, count: 16)
        let family = spotter_curl_sockaddr_ip(address, &bytes)
        guard family == AF_INET || family == AF_INET6,
            let ip = IPAddress(bytes: family == AF_INET ? Array(bytes.prefix(4)) : bytes)
        else { return CURL_SOCKET_BAD }
        guard policy.allows(ip) else {
            refusedAddresses.append(ip)
            return CURL_SOCKET_BAD
        }
        allowedAttempts += 1
        return socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    }
}

private let receiveBody: curl_write_callback = { data, size, count, opaque in
    let length = size * count
    let accepted = TransferContext.from(opaque).body.receive(UnsafeRawBufferPointer(start: data, count: length))
    return accepted ? length : 0
}

private let checkCancellation: curl_xferinfo_callback = { opaque, _, _, _, _ in
    TransferContext.from(opaque).cancellation.isCancelled ? 1 : 0
}

private let openAllowedSocket: curl_opensocket_callback = { opaque, _, address in
    TransferContext.from(opaque).openSocket(for: address!)
}

private let noteConnection: curl_prereq_callback = { opaque, _, _, _, _ in
    TransferContext.from(opaque).forgetAttempts()
    return CURL_PREREQFUNC_OK
}
