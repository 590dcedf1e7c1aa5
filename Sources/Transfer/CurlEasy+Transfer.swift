internal import CCurl

extension CurlEasy {
    /// The options of every transfer: the URL, http and https only (redirects
    /// included), no proxy from the environment, no signals, the timeouts,
    /// and `context`'s callbacks.
    func configure(
        for target: TransferTarget, context: TransferContext, userAgent: String, connectTimeout: Duration,
        totalTimeout: Duration
    ) throws(TransferError) {
        try set(CURLOPT_URL, target.url)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_PROXY, "")
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_USERAGENT, userAgent)
        try set(CURLOPT_CONNECTTIMEOUT_MS, curlMilliseconds(connectTimeout))
        try set(CURLOPT_TIMEOUT_MS, curlMilliseconds(totalTimeout))
        try context.install(on: self)
    }

    /// Runs the transfer; throws what its failure means for `target`:
    /// `CancellationError` when the task was cancelled, the body receiver's
    /// failure when it stopped the transfer on one, else a `TransferError`
    /// for libcurl's code. A receiver that stops without failure has all it wants.
    func perform(_ target: TransferTarget, context: TransferContext) throws {
        let code = withExtendedLifetime(context) { perform() }
        if code == CURLE_OK { return }
        if code == CURLE_ABORTED_BY_CALLBACK && context.cancellation.isCancelled { throw CancellationError() }
        if code == CURLE_WRITE_ERROR {
            if let failure = context.body.failure { throw failure }
            return
        }
        if code == CURLE_COULDNT_CONNECT && !context.refusedAddresses.isEmpty && context.allowedAttempts == 0 {
            throw target.refusal(of: context.refusedAddresses, policy: context.policy, curlCode: code, easy: self)
        }
        throw target.error(for: code, easy: self)
    }
}
