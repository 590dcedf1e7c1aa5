import Server
import Transfer

/// A client's `video_url` checked when the session is made, by the rules the
/// worker applies when it fetches it: http(s), no credentials, and no host
/// written as an address the policy refuses (libcurl's parser reads every
/// spelling: `127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`). A name that
/// resolves inside is still refused by the worker when it connects.
public struct VideoURLChecks: VideoURLPolicy {
    private let policy: AddressPolicy

    public init(policy: AddressPolicy) {
        self.policy = policy
    }

    public func check(_ url: String) throws {
        _ = try TargetURL(url, allowingHTTP: true, policy: policy)
    }
}
